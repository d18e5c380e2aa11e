// mocha's settings for every run (`npm test` adds test/suite.cjs's on top).
//
// Test files load through `import` (tsx's ESM loader), never `require`: on a Node with require(esm)
// (20.19 and later) mocha requires a .ts file first, so tsx made the test files and everything they
// import CommonJS, while the `import()`s inside src/ (migrations, job handlers) loaded the same files
// again as ES modules. Each worker then held two copies of the server's modules and compiled the
// cube models twice (3 s of CPU each). Older Nodes have no such flag and import already.
module.exports = {
  'node-option': ['import=tsx', ...(process.features.require_module === undefined ? [] : ['no-experimental-require-module'])],
  require: ['test/helpers/globalSetup.ts', 'test/helpers/hooks.ts'],
  timeout: 30000,
  reporter: 'spec',
  exit: true,
};
