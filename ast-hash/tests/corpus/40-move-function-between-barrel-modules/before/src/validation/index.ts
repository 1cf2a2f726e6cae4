/**
 * @acme/validation: small, dependency-free validators shared by the API and
 * the web app.
 *
 * This file is the package's only entry point: package.json has
 *   "exports": { ".": "./dist/index.js" }
 * so consumers can never import ./strings or ./numbers directly, and the
 * implementation modules are free to move validators between each other.
 *
 * Every validator returns a ValidationResult instead of throwing, so callers
 * can collect all problems of a form in one pass.
 */

export * from "./strings";
export * from "./numbers";
export type { ValidationResult } from "./result";
