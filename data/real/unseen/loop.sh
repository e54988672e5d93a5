# an ash loop: arithmetic, string building, case and a function, no child process
s=0 i=0 w= r=0
step() { r=$(( ($1 * 7 + 3) % 11 )); }
while [ $i -lt 3000 ]; do
    s=$(( s + i * i % 97 ))
    step $i
    s=$(( s + r ))
    case $((i % 5)) in
        0) w="$w a" ;;
        3) w="${w# }" ;;
    esac
    i=$((i + 1))
done
echo "$s ${#w}"
