// Runs before `npm start`, `npm test` and `npm install` (reached there only with engine-strict
// off: see .npmrc) on whatever Node is first on PATH (plain JavaScript, so an old Node gets this
// sentence instead of failing deep in the build on a .ts file).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`tessera needs Node.js 22.18 or newer (Node 24 LTS recommended); this is ${process.version}. Run \`source scripts/use-node.sh\` to fetch Node 24 into .tools/.`);
  process.exit(1);
}
