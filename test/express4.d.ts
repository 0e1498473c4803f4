// The Express 4 runtime for the tests that run groundcheck under Express 4 (the devDependency alias
// `express4` → express@4), typed with the Express 5 types the library's signatures use. The packed
// package's test typechecks a consumer against @types/express 4 itself (test/package.test.ts).
declare module 'express4' {
  import express from 'express';
  export default express;
}
