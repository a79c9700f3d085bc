# Filters npm's output: each five-line EBADENGINE block (a package that needs a newer Node than the
# one npm runs on) is dropped, and the packages are named together in one closing `note:` line.
# Every other line passes through as it is. NODE_RUNNING_NPM names the Node that npm ran on.
/^npm warn EBADENGINE/ {
  if ($0 ~ /package:/) {
    sub(/.*package: /, "")
    gsub(/[',]/, "")
    needs = needs " " $0
  }
  next
}
{ print }
END {
  if (needs != "") print "note: npm ran on Node " ENVIRON["NODE_RUNNING_NPM"] "; these packages need a newer Node and run on the project's Node 24 (the node package) instead:" needs
}
