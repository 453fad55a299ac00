// Preloaded by `npm start` right after tsx (--import): source maps for the stack traces of the shop's own TypeScript
// only. tsx turns Node's source maps on for every module, and Node then reads and parses, when a package loads, the .map
// file of every package in node_modules that ships one, original sources included: about 10 MB of heap for stack frames
// inside dependencies.
import module from "node:module";

module.setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
