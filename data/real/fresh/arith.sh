# arith.sh: a shell loop of arithmetic, string slicing and a function (no child process)
n=0 acc=0 str=
f() { acc=$(( (acc * 31 + $1) % 1000003 )); }
while [ $n -lt 2500 ]; do
    f $n
    str="$str$((n % 10))"
    [ ${#str} -gt 40 ] && str=${str#??????????}
    n=$((n + 1))
done
echo "$acc $str"
