// Loaded with `node --import` before the conformance suite's bundle: registers `hooks.mjs`, which gives
// the bundle's `fs` a `globSync` on Node 20 (Node 22 added it). The bundle imports `globSync` at load
// time but calls it only in its `tier-check` command, so the server scenarios run unchanged.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
