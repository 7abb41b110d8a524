import { buildProject } from '../project.ts';
import { TRIVIAL_TOOL } from '../corpus.ts';
const n = Number(process.argv[2] ?? 50);
const p = await buildProject({ root: `/tmp/bench-scratch/proj${n}`, count: n, extraDefinitions: { 'bench/add_numbers.tool.json': TRIVIAL_TOOL } });
console.log({ gen: p.generateMs, write: p.writeMs, compile: p.compileMs, typeErrors: p.typeErrors, notes: p.notes, files: p.result.files.length });
const t = p.corpus.tools.find((x) => x.sampleOutput)!;
console.log(t.name, JSON.stringify(t.sampleInput));
