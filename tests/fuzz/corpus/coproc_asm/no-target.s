nop -> 
