/**
 * `toolsmith generate --update-stubs`, through the CLI on a real project: after a tool is renamed,
 * and after a shared schema file is renamed, a plain generate names the stubs that no longer match
 * (a note: `--strict` still passes) and leaves them alone; with the flag, only the stub's imports,
 * its `extends` clause, its class name (a tool's own stub follows its tool to the new file) and the
 * type names of `execute`'s signature change — every other line stays byte for byte — and the
 * project type-checks again. A name the stub uses elsewhere is imported under its old name.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../codegen/cli/main.js';
import { cacheFile } from '../../../codegen/incremental/store.js';
import { createTempProject, type TempProject, typeCheck } from '../../helpers/temp-project.js';

const WEATHER = {
  name: 'weather_lookup',
  description: 'Looks up the weather near a point.',
  inputSchema: {
    type: 'object',
    properties: { at: { $ref: 'shared/geo-point.schema.json' } },
    required: ['at'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { celsius: { type: 'number' } },
    required: ['celsius'],
    additionalProperties: false,
  },
};
const GEO_POINT = {
  type: 'object',
  properties: { lat: { type: 'number' }, lon: { type: 'number' } },
  required: ['lat', 'lon'],
  additionalProperties: false,
};
const WHERE = {
  name: 'where_am_i',
  description: 'Tells where the caller is.',
  inputSchema: { type: 'object', additionalProperties: false },
  outputSchema: { $ref: 'shared/geo-point.schema.json' },
};

/** The stub of weather_lookup as a user finished it: other imports, a helper, a body, odd spacing kept. */
const WEATHER_STUB = `/**
 * Implementation of the tool \`weather_lookup\` (schemas/weather_lookup.tool.json).
 */
import type { ToolExecutionContext, ToolExecutionResult } from '__RUNTIME__';
import { WeatherLookupToolBase } from "../../generated/tools/weather-lookup.base.js";
import type { WeatherLookupArgs, WeatherLookupOutput } from '../../generated/types/weather-lookup.js';
import type { GeoPoint } from '../../generated/types/shared/geo-point.js';

/** Tens of degrees from the equator,   spaced oddly on purpose. */
function band(at: GeoPoint): number {
  return Math.round(at.lat / 10);
}

export class WeatherLookupTool extends WeatherLookupToolBase {
  async execute(args: WeatherLookupArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<WeatherLookupOutput>> {
    return { success: true, output: { celsius: 20 - band(args.at) } }; // WeatherLookupArgs in a comment stays
  }
}
`;

/** The stub of where_am_i: the shared type only in `execute`'s signature. */
const WHERE_STUB = `import type { ToolExecutionContext, ToolExecutionResult } from '__RUNTIME__';
import { WhereAmIToolBase } from '../../generated/tools/where-am-i.base.js';
import type { GeoPoint } from '../../generated/types/shared/geo-point.js';

export class WhereAmITool extends WhereAmIToolBase {
  async execute(_args: unknown, _context: ToolExecutionContext): Promise<ToolExecutionResult<GeoPoint>> {
    return { success: true, output: { lat: 48.1, lon: 11.6 } };
  }
}
`;

/** Lines of `after` that are not lines of `before` (in order). */
function changedLines(before: string, after: string): string[] {
  const kept = new Set(before.split('\n'));
  return after.split('\n').filter((line) => !kept.has(line));
}

describe('generate --update-stubs', () => {
  let project: TempProject;
  let stderr: string[];
  const generate = (...flags: string[]) => {
    stderr = [];
    return main(['generate', ...flags], {
      cwd: project.root,
      stdout: () => undefined,
      stderr: (text: string) => void stderr.push(text),
    });
  };

  beforeEach(async () => {
    project = createTempProject();
    project.write('toolsmith.config.json', { runtimeImport: project.runtimeImport });
    project.write('schemas/weather_lookup.tool.json', WEATHER);
    project.write('schemas/where_am_i.tool.json', WHERE);
    project.write('schemas/shared/geo-point.schema.json', GEO_POINT);
    expect(await generate()).toBe(0);
    // The runtime as the scaffolds import it from the stubs folder.
    const runtime = /from '([^']+)';/.exec(project.read('src/tools/weather-lookup.ts'))![1]!;
    project.write('src/tools/weather-lookup.ts', WEATHER_STUB.replace('__RUNTIME__', runtime));
    project.write('src/tools/where-am-i.ts', WHERE_STUB.replace('__RUNTIME__', runtime));
    expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 120_000);
  afterEach(() => project.dispose());

  it('a renamed tool: noted without the flag; with it the stub follows its tool and compiles, other lines kept', async () => {
    project.write('schemas/weather_lookup.tool.json', { ...WEATHER, name: 'weather_forecast' });
    const before = project.read('src/tools/weather-lookup.ts');

    expect(await generate('--strict')).toBe(0);
    expect(stderr.join('')).toBe(
      'toolsmith: note: this stub imports generated names that were renamed: src/tools/weather-lookup.ts; ' +
        '`toolsmith generate --update-stubs` rewrites their imports, extends clause and execute signature to the new names\n',
    );
    expect(project.read('src/tools/weather-lookup.ts')).toBe(before);
    const scaffold = project.read('src/tools/weather-forecast.ts'); // created as for any new tool
    expect(scaffold).toContain('is not implemented yet');

    expect(await generate('--update-stubs')).toBe(0);
    expect(stderr.join('')).toBe(
      'toolsmith: updated src/tools/weather-lookup.ts → src/tools/weather-forecast.ts: ' +
        "'../../generated/tools/weather-lookup.base.js' → '../../generated/tools/weather-forecast.base.js', " +
        'WeatherLookupToolBase → WeatherForecastToolBase, ' +
        "'../../generated/types/weather-lookup.js' → '../../generated/types/weather-forecast.js', " +
        'WeatherLookupArgs → WeatherForecastArgs, WeatherLookupOutput → WeatherForecastOutput, ' +
        'class WeatherLookupTool → WeatherForecastTool\n',
    );
    expect(existsSync(path.join(project.root, 'src/tools/weather-lookup.ts'))).toBe(false);
    const after = project.read('src/tools/weather-forecast.ts');
    expect(changedLines(before, after)).toEqual([
      'import { WeatherForecastToolBase } from "../../generated/tools/weather-forecast.base.js";',
      "import type { WeatherForecastArgs, WeatherForecastOutput } from '../../generated/types/weather-forecast.js';",
      'export class WeatherForecastTool extends WeatherForecastToolBase {',
      '  async execute(args: WeatherForecastArgs, _context: ToolExecutionContext): Promise<ToolExecutionResult<WeatherForecastOutput>> {',
    ]);
    expect(after.split('\n')).toHaveLength(before.split('\n').length);
    expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
    // The record holds no scaffold of the file the stub left (nor of the one it now is).
    const recordFile = cacheFile(project.root, path.join(project.root, 'generated'))!.replace(/\.json$/, '.stubs.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { created: [string, string][] };
    expect(record.created.map(([file]) => file)).toEqual(['where-am-i.ts']);

    // Matching again: nothing more to say or do.
    expect(await generate('--update-stubs')).toBe(0);
    expect(stderr).toEqual([]);
    expect(project.read('src/tools/weather-forecast.ts')).toBe(after);
  }, 120_000);

  it('a renamed shared type: each stub importing it rewritten, under its old name where the stub uses it elsewhere', async () => {
    project.write('schemas/shared/location.schema.json', GEO_POINT);
    rmSync(path.join(project.root, 'schemas/shared/geo-point.schema.json'));
    const moved = (definition: object) =>
      JSON.parse(JSON.stringify(definition).replaceAll('shared/geo-point.schema.json', 'shared/location.schema.json'));
    project.write('schemas/weather_lookup.tool.json', moved(WEATHER));
    project.write('schemas/where_am_i.tool.json', moved(WHERE));
    const weather = project.read('src/tools/weather-lookup.ts');
    const where = project.read('src/tools/where-am-i.ts');

    expect(await generate()).toBe(0);
    expect(stderr.join('')).toContain(
      'toolsmith: note: 2 stubs import generated names that were renamed: src/tools/weather-lookup.ts, src/tools/where-am-i.ts;',
    );
    expect(project.read('src/tools/where-am-i.ts')).toBe(where);

    expect(await generate('--update-stubs')).toBe(0);
    expect(stderr.join('')).toBe(
      'toolsmith: updated src/tools/weather-lookup.ts: ' +
        "'../../generated/types/shared/geo-point.js' → '../../generated/types/shared/location.js', " +
        'GeoPoint → Location (imported as GeoPoint: the stub uses it elsewhere too)\n' +
        'toolsmith: updated src/tools/where-am-i.ts: ' +
        "'../../generated/types/shared/geo-point.js' → '../../generated/types/shared/location.js', GeoPoint → Location\n",
    );
    expect(changedLines(weather, project.read('src/tools/weather-lookup.ts'))).toEqual([
      "import type { Location as GeoPoint } from '../../generated/types/shared/location.js';",
    ]);
    expect(changedLines(where, project.read('src/tools/where-am-i.ts'))).toEqual([
      "import type { Location } from '../../generated/types/shared/location.js';",
      '  async execute(_args: unknown, _context: ToolExecutionContext): Promise<ToolExecutionResult<Location>> {',
    ]);
    expect(await typeCheck(project, ['generated', 'src'])).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('what the record cannot tell (a tool renamed with its file in one run) is named, to fix by hand', async () => {
    rmSync(path.join(project.root, 'schemas/weather_lookup.tool.json'));
    project.write('schemas/weather_forecast.tool.json', { ...WEATHER, name: 'weather_forecast' });
    const before = project.read('src/tools/weather-lookup.ts');

    expect(await generate('--update-stubs')).toBe(0);
    expect(stderr.join('')).toBe(
      ['WeatherLookupToolBase', 'WeatherLookupArgs', 'WeatherLookupOutput']
        .map(
          (name) =>
            `toolsmith: note: src/tools/weather-lookup.ts imports ${name}, which the generated code no longer has, ` +
            'and toolsmith cannot tell what it became: fix it by hand\n',
        )
        .join(''),
    );
    expect(project.read('src/tools/weather-lookup.ts')).toBe(before);
  }, 120_000);

  it('a generate that took no generated name away reads no stub (bounded: only new scaffolds are read)', async () => {
    // Would be noted if read: it imports a name the base module never had.
    project.write(
      'src/tools/odd.ts',
      "import { Nope } from '../../generated/tools/weather-lookup.base.js';\nvoid Nope;\n",
    );
    project.write('schemas/weather_lookup.tool.json', { ...WEATHER, description: 'Looks up the weather, again.' });
    expect(await generate()).toBe(0);
    expect(stderr).toEqual([]);
    // Once a name is gone, every stub is read again.
    project.write('schemas/weather_lookup.tool.json', { ...WEATHER, name: 'weather_forecast' });
    expect(await generate()).toBe(0);
    expect(stderr.join('')).toContain(
      'toolsmith: note: src/tools/odd.ts imports Nope, which the generated code no longer has, and toolsmith cannot tell what it became: fix it by hand\n',
    );
  }, 120_000);

  it('a scaffold edited at the new name stays: the old stub is rewritten in place and the clash named', async () => {
    project.write('schemas/weather_lookup.tool.json', { ...WEATHER, name: 'weather_forecast' });
    expect(await generate()).toBe(0);
    project.write('src/tools/weather-forecast.ts', `${project.read('src/tools/weather-forecast.ts')}// mine\n`);
    const edited = project.read('src/tools/weather-forecast.ts');

    expect(await generate('--update-stubs')).toBe(0);
    expect(stderr.join('')).toMatch(
      /^toolsmith: updated src\/tools\/weather-lookup\.ts: .*\n {2}stays at weather-lookup\.ts: weather-forecast\.ts exists and is not the untouched scaffold \(merge the two by hand\)\n$/,
    );
    expect(project.read('src/tools/weather-forecast.ts')).toBe(edited);
    expect(project.read('src/tools/weather-lookup.ts')).toContain(
      'export class WeatherLookupTool extends WeatherForecastToolBase {',
    );
  }, 120_000);
});
