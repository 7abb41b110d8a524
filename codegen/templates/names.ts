/** The templates the docs renderer (`createDocRenderer`) renders: `index`, `tool` and `types` (see codegen/templates/*.hbs). */
export type DocTemplates = Readonly<Record<string, string>>;

/** Names of the templates, and so of the files a user's `--templates DIR` may override. */
export const DOC_TEMPLATE_NAMES = ['index', 'tool', 'types'] as const;
