import { format, type Options } from 'prettier';
import type { GeneratedFile } from '../model.js';

/**
 * Formatter options fixed inside the generator (a user's .prettierrc never changes our bytes); the
 * repository's own `.prettierrc.json` is the same (a test keeps them equal).
 */
export const PRETTIER_OPTIONS: Options = {
  printWidth: 120,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: true,
  trailingComma: 'all',
  bracketSpacing: true,
  arrowParens: 'always',
  endOfLine: 'lf',
  quoteProps: 'as-needed',
};

/**
 * Formats TypeScript and JavaScript files with prettier; other files, and every file when `prettier`
 * is off (the `format` setting), get LF endings and one final newline.
 */
export async function formatFiles(files: readonly GeneratedFile[], prettier: boolean): Promise<GeneratedFile[]> {
  return prettier ? Promise.all(files.map((file) => formatFile(file))) : files.map(normalizeLineEndings);
}

/** A file with LF line endings and exactly one final newline (the layout every generated file has). */
function normalizeLineEndings(file: GeneratedFile): GeneratedFile {
  return { ...file, content: `${file.content.replace(/\r\n?/g, '\n').replace(/\n*$/, '')}\n` };
}

/**
 * Formats one file by its extension. The types files (`types/*.ts`: interfaces and type aliases
 * only) are parsed with prettier's `babel-ts` parser, ~25 % faster there than `typescript` with the
 * same output (test/codegen/emit/format.slow.test.ts compares the two on every corpus).
 */
export async function formatFile(file: GeneratedFile): Promise<GeneratedFile> {
  if (file.preformatted) return file;
  const parser = file.path.endsWith('.ts')
    ? file.path.startsWith('types/')
      ? 'babel-ts'
      : 'typescript'
    : file.path.endsWith('.js')
      ? 'babel'
      : undefined;
  if (parser === undefined) return normalizeLineEndings(file);
  return { ...file, content: await format(file.content, { ...PRETTIER_OPTIONS, parser }) };
}
