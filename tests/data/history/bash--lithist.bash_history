ls -la
git status
#1700000000
cat <<'END' > notes.md
rm -rf ~ is what we never run

END
#1700000010
for f in *.log; do
  rm -rf ~
done
#1700000020
echo "a quote left open
rm -rf /
#1700000030
git push --force origin main
#1700000040
printf '%s\n' ok ÿ
#99999999999999
cargo build
