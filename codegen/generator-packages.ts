/**
 * The packages only the generator needs, at the exact versions toolsmith is tested with.
 * `toolsmith init` adds them to the project's devDependencies; toolsmith itself does not declare
 * them as peer dependencies, because npm 7+ marks an optional peer that is also a devDependency of
 * the project `devOptional`, and `npm ci --omit=dev` keeps `devOptional` packages. Keep in sync with
 * toolsmith's own devDependencies (a test checks it).
 */
export const GENERATOR_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  "json-schema-to-typescript": "16.0.0",
  "ts-morph": "28.0.0",
  "prettier": "3.10.1",
  "handlebars": "4.7.10",
  "chokidar": "4.0.3",
  "tsx": "4.23.15"
});

/** What `npm run build` needs in a project (`toolsmith init` adds them as devDependencies with the generator's packages). */
export const BUILD_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  "typescript": "7.0.2",
  "@types/node": "20.19.9"
});
