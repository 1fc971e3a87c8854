import module from 'node:module';

// The `sluice` executable. Node ≥ 22.1 keeps the compiled code of the CLI on disk between runs
// (module compile cache, in the OS temp folder; NODE_COMPILE_CACHE moves it and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off), so it is enabled first and the CLI itself loaded
// after it: a static import would be compiled before. Older Nodes simply start without it.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./start-cli.js');
