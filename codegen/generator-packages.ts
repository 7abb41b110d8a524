/**
 * The packages only the generator needs (peer dependencies of toolsmith, installed as
 * devDependencies by `toolsmith init`), at the exact versions toolsmith is tested with. Keep in
 * sync with package.json (a test checks it).
 */
export const GENERATOR_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  "json-schema-to-typescript": "16.0.0",
  "ts-morph": "28.0.0",
  "prettier": "3.10.1",
  "handlebars": "4.7.10",
  "chokidar": "4.0.3",
  "tsx": "4.23.15"
});
