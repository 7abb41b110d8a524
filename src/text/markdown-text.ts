/** A Markdown code span that survives backticks (and table pipes) in its text: loss messages and docs pages both quote schema text with it. */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  let fence = '`';
  while (flat.includes(fence)) fence += '`';
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
