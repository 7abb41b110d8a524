// The Ajv standalone validator of toolsmith.config.*, generated from codegen/config-schema.ts by `npm run config-schema`. Do not edit.
// @ts-nocheck

export const validate = validate10;
export default validate10;
const schema11 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'toolsmith configuration',
  description:
    'toolsmith.config.json (or the default export of toolsmith.config.ts / .mts / .js / .mjs). Command-line flags override it.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: {
      type: 'string',
      description:
        'The JSON schema of this file, for editor autocomplete: `./node_modules/toolsmith/toolsmith.config.schema.json`.',
    },
    schemas: {
      type: 'string',
      minLength: 1,
      default: 'schemas',
      description:
        'The definitions folder (`*.tool.json`, `*.schema.json`), relative to the project. Flag: `--schemas`.',
    },
    out: {
      type: 'string',
      minLength: 1,
      default: 'generated',
      description: 'The generated output folder, relative to the project. Flag: `--out`.',
    },
    stubs: {
      type: 'string',
      minLength: 1,
      default: 'src/tools',
      description: 'The implementation stubs folder (written only when a stub is absent). Flag: `--stubs`.',
    },
    runtimeImport: {
      type: 'string',
      minLength: 1,
      default: 'toolsmith',
      description:
        'Where generated code imports the runtime from: a package name, or a path relative to the project (`./src/index.js`).',
    },
    regenerateCommand: {
      type: 'string',
      minLength: 1,
      default: 'npx toolsmith generate',
      description: 'The command the banners of generated files tell readers to run.',
    },
    templates: {
      type: 'string',
      minLength: 1,
      description:
        'A folder of handlebars templates overriding the default docs templates, file by file. Flag: `--templates`.',
    },
    manifests: {
      type: 'object',
      additionalProperties: false,
      description: 'The provider manifests generated under `<out>/manifests/`.',
      properties: {
        targets: {
          type: 'array',
          description: 'The manifest targets to emit (default: all but `gemini-legacy`).',
          items: {
            title: 'manifest target',
            type: 'string',
            enum: [
              'openai',
              'openai-strict',
              'openai-responses',
              'openai-responses-strict',
              'anthropic',
              'gemini',
              'gemini-legacy',
              'mcp',
            ],
          },
        },
        unrepresentable: {
          type: 'string',
          enum: ['omit', 'error'],
          default: 'omit',
          description:
            'A tool a target cannot take: left out of that target with a warning and listed in the loss report (`omit`), or a problem that blocks the run (`error`).',
        },
        describeLosses: {
          type: 'boolean',
          default: true,
          description:
            'Tell in the descriptions what a target drops (e.g. a `pattern` OpenAI strict mode cannot carry).',
        },
      },
    },
    entry: {
      type: 'string',
      minLength: 1,
      description:
        'The module `call` and `serve` take the orchestrator from (relative to the project): its default export is a `ToolOrchestrator`, its options, or a function returning either. Flag: `--entry`.',
    },
    capabilities: {
      type: 'array',
      items: { type: 'string' },
      description: 'The capabilities of the persona `call` and `serve` act as. Flag: `--capability` (repeatable).',
    },
    format: {
      type: 'boolean',
      default: true,
      description: "Format generated TypeScript with prettier; `false` is faster and keeps the emitters' own layout.",
    },
    strict: { type: 'boolean', default: false, description: 'Warnings are errors (for CI). Flag: `--strict`.' },
    workers: {
      type: 'integer',
      minimum: 1,
      description:
        'Threads emitting tools in a full generate or check, the main thread one of them (default: `TOOLSMITH_WORKERS`, else one per core); 1 emits in process only. Flag: `--workers`.',
    },
  },
};
const func2 = Object.prototype.hasOwnProperty;

function validate10(data, { instancePath = '', parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (data && typeof data == 'object' && !Array.isArray(data)) {
    for (const key0 in data) {
      if (!func2.call(schema11.properties, key0)) {
        const err0 = {
          instancePath,
          schemaPath: '#/additionalProperties',
          keyword: 'additionalProperties',
          params: { additionalProperty: key0 },
          message: 'must NOT have additional properties',
        };
        if (vErrors === null) {
          vErrors = [err0];
        } else {
          vErrors.push(err0);
        }
        errors++;
      }
    }
    if (data.$schema !== undefined) {
      if (typeof data.$schema !== 'string') {
        const err1 = {
          instancePath: instancePath + '/$schema',
          schemaPath: '#/properties/%24schema/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err1];
        } else {
          vErrors.push(err1);
        }
        errors++;
      }
    }
    if (data.schemas !== undefined) {
      let data1 = data.schemas;
      if (typeof data1 === 'string') {
        if (data1.length < 1) {
          const err2 = {
            instancePath: instancePath + '/schemas',
            schemaPath: '#/properties/schemas/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err2];
          } else {
            vErrors.push(err2);
          }
          errors++;
        }
      } else {
        const err3 = {
          instancePath: instancePath + '/schemas',
          schemaPath: '#/properties/schemas/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.out !== undefined) {
      let data2 = data.out;
      if (typeof data2 === 'string') {
        if (data2.length < 1) {
          const err4 = {
            instancePath: instancePath + '/out',
            schemaPath: '#/properties/out/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
      } else {
        const err5 = {
          instancePath: instancePath + '/out',
          schemaPath: '#/properties/out/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.stubs !== undefined) {
      let data3 = data.stubs;
      if (typeof data3 === 'string') {
        if (data3.length < 1) {
          const err6 = {
            instancePath: instancePath + '/stubs',
            schemaPath: '#/properties/stubs/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      } else {
        const err7 = {
          instancePath: instancePath + '/stubs',
          schemaPath: '#/properties/stubs/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
    }
    if (data.runtimeImport !== undefined) {
      let data4 = data.runtimeImport;
      if (typeof data4 === 'string') {
        if (data4.length < 1) {
          const err8 = {
            instancePath: instancePath + '/runtimeImport',
            schemaPath: '#/properties/runtimeImport/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err8];
          } else {
            vErrors.push(err8);
          }
          errors++;
        }
      } else {
        const err9 = {
          instancePath: instancePath + '/runtimeImport',
          schemaPath: '#/properties/runtimeImport/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
    if (data.regenerateCommand !== undefined) {
      let data5 = data.regenerateCommand;
      if (typeof data5 === 'string') {
        if (data5.length < 1) {
          const err10 = {
            instancePath: instancePath + '/regenerateCommand',
            schemaPath: '#/properties/regenerateCommand/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
      } else {
        const err11 = {
          instancePath: instancePath + '/regenerateCommand',
          schemaPath: '#/properties/regenerateCommand/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
    }
    if (data.templates !== undefined) {
      let data6 = data.templates;
      if (typeof data6 === 'string') {
        if (data6.length < 1) {
          const err12 = {
            instancePath: instancePath + '/templates',
            schemaPath: '#/properties/templates/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err12];
          } else {
            vErrors.push(err12);
          }
          errors++;
        }
      } else {
        const err13 = {
          instancePath: instancePath + '/templates',
          schemaPath: '#/properties/templates/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err13];
        } else {
          vErrors.push(err13);
        }
        errors++;
      }
    }
    if (data.manifests !== undefined) {
      let data7 = data.manifests;
      if (data7 && typeof data7 == 'object' && !Array.isArray(data7)) {
        for (const key1 in data7) {
          if (!(key1 === 'targets' || key1 === 'unrepresentable' || key1 === 'describeLosses')) {
            const err14 = {
              instancePath: instancePath + '/manifests',
              schemaPath: '#/properties/manifests/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key1 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err14];
            } else {
              vErrors.push(err14);
            }
            errors++;
          }
        }
        if (data7.targets !== undefined) {
          let data8 = data7.targets;
          if (Array.isArray(data8)) {
            const len0 = data8.length;
            for (let i0 = 0; i0 < len0; i0++) {
              let data9 = data8[i0];
              if (typeof data9 !== 'string') {
                const err15 = {
                  instancePath: instancePath + '/manifests/targets/' + i0,
                  schemaPath: '#/properties/manifests/properties/targets/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err15];
                } else {
                  vErrors.push(err15);
                }
                errors++;
              }
              if (!(
                data9 === 'openai' ||
                data9 === 'openai-strict' ||
                data9 === 'openai-responses' ||
                data9 === 'openai-responses-strict' ||
                data9 === 'anthropic' ||
                data9 === 'gemini' ||
                data9 === 'gemini-legacy' ||
                data9 === 'mcp'
              )) {
                const err16 = {
                  instancePath: instancePath + '/manifests/targets/' + i0,
                  schemaPath: '#/properties/manifests/properties/targets/items/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.manifests.properties.targets.items.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err16];
                } else {
                  vErrors.push(err16);
                }
                errors++;
              }
            }
          } else {
            const err17 = {
              instancePath: instancePath + '/manifests/targets',
              schemaPath: '#/properties/manifests/properties/targets/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err17];
            } else {
              vErrors.push(err17);
            }
            errors++;
          }
        }
        if (data7.unrepresentable !== undefined) {
          let data10 = data7.unrepresentable;
          if (typeof data10 !== 'string') {
            const err18 = {
              instancePath: instancePath + '/manifests/unrepresentable',
              schemaPath: '#/properties/manifests/properties/unrepresentable/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err18];
            } else {
              vErrors.push(err18);
            }
            errors++;
          }
          if (!(data10 === 'omit' || data10 === 'error')) {
            const err19 = {
              instancePath: instancePath + '/manifests/unrepresentable',
              schemaPath: '#/properties/manifests/properties/unrepresentable/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.manifests.properties.unrepresentable.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err19];
            } else {
              vErrors.push(err19);
            }
            errors++;
          }
        }
        if (data7.describeLosses !== undefined) {
          if (typeof data7.describeLosses !== 'boolean') {
            const err20 = {
              instancePath: instancePath + '/manifests/describeLosses',
              schemaPath: '#/properties/manifests/properties/describeLosses/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err20];
            } else {
              vErrors.push(err20);
            }
            errors++;
          }
        }
      } else {
        const err21 = {
          instancePath: instancePath + '/manifests',
          schemaPath: '#/properties/manifests/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err21];
        } else {
          vErrors.push(err21);
        }
        errors++;
      }
    }
    if (data.entry !== undefined) {
      let data12 = data.entry;
      if (typeof data12 === 'string') {
        if (data12.length < 1) {
          const err22 = {
            instancePath: instancePath + '/entry',
            schemaPath: '#/properties/entry/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err22];
          } else {
            vErrors.push(err22);
          }
          errors++;
        }
      } else {
        const err23 = {
          instancePath: instancePath + '/entry',
          schemaPath: '#/properties/entry/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err23];
        } else {
          vErrors.push(err23);
        }
        errors++;
      }
    }
    if (data.capabilities !== undefined) {
      let data13 = data.capabilities;
      if (Array.isArray(data13)) {
        const len1 = data13.length;
        for (let i1 = 0; i1 < len1; i1++) {
          if (typeof data13[i1] !== 'string') {
            const err24 = {
              instancePath: instancePath + '/capabilities/' + i1,
              schemaPath: '#/properties/capabilities/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err24];
            } else {
              vErrors.push(err24);
            }
            errors++;
          }
        }
      } else {
        const err25 = {
          instancePath: instancePath + '/capabilities',
          schemaPath: '#/properties/capabilities/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err25];
        } else {
          vErrors.push(err25);
        }
        errors++;
      }
    }
    if (data.format !== undefined) {
      if (typeof data.format !== 'boolean') {
        const err26 = {
          instancePath: instancePath + '/format',
          schemaPath: '#/properties/format/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err26];
        } else {
          vErrors.push(err26);
        }
        errors++;
      }
    }
    if (data.strict !== undefined) {
      if (typeof data.strict !== 'boolean') {
        const err27 = {
          instancePath: instancePath + '/strict',
          schemaPath: '#/properties/strict/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err27];
        } else {
          vErrors.push(err27);
        }
        errors++;
      }
    }
    if (data.workers !== undefined) {
      let data17 = data.workers;
      if (!(typeof data17 == 'number' && !(data17 % 1) && !isNaN(data17) && isFinite(data17))) {
        const err28 = {
          instancePath: instancePath + '/workers',
          schemaPath: '#/properties/workers/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err28];
        } else {
          vErrors.push(err28);
        }
        errors++;
      }
      if (typeof data17 == 'number' && isFinite(data17)) {
        if (data17 < 1 || isNaN(data17)) {
          const err29 = {
            instancePath: instancePath + '/workers',
            schemaPath: '#/properties/workers/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 1 },
            message: 'must be >= 1',
          };
          if (vErrors === null) {
            vErrors = [err29];
          } else {
            vErrors.push(err29);
          }
          errors++;
        }
      }
    }
  } else {
    const err30 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err30];
    } else {
      vErrors.push(err30);
    }
    errors++;
  }
  validate10.errors = vErrors;
  return errors === 0;
}
