// Imported first by src/main.ts and src/cli.ts: a Node older than the pinned 24 that can strip this file's types
// (22.18–23) gets one line instead of a failure further on. npm start and npx shop run the pinned Node; Node 20 stops
// at the .ts extension before any of this runs, with Node's own error.
if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(`shop: needs Node 24 or newer (this is Node ${process.versions.node}); start it with \`npm start\` or \`npx shop\`, which use the pinned Node`);
  process.exit(1);
}
