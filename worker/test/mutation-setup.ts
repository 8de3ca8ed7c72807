/**
 * For mutation runs only (stryker.vitest.config.ts): loads the Worker's modules before any test.
 * Their module-level code (header tables, patterns, constants) then runs outside every test, so
 * Stryker sees its mutants as static and leaves them out of the score, as it does for src/, where the
 * tests import the modules at the top. Otherwise the first test that fetches from the Worker would
 * load them and be taken for the one test that covers them.
 */
import "../index.ts";
