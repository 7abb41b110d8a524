// The Ajv standalone validator of toolsmith.config.*, generated from codegen/config/config-schema.ts by `npm run config-schema`. Do not edit.
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
        'The JSON schema of this file, for editor autocomplete: `./node_modules/toolsmith-sdk/toolsmith.config.schema.json`.',
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
      default: 'toolsmith-sdk',
      description:
        'Where generated code imports the runtime from: a package name, or a path relative to the project (`./src/index.js`).',
    },
    regenerateCommand: {
      type: 'string',
      minLength: 1,
      default: 'npx --no toolsmith generate',
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
      default: {},
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
              'mcp-portable',
            ],
          },
        },
        unrepresentable: {
          type: 'string',
          enum: ['omit', 'error'],
          default: 'omit',
          description:
            'A tool a target cannot take: left out with a warning and listed in the loss report (`omit`), or a problem (`error`).',
        },
        describeLosses: {
          type: 'boolean',
          default: true,
          description:
            'Tell in the descriptions what a target drops (e.g. a `pattern` OpenAI strict mode cannot carry).',
        },
        deferLoading: {
          type: 'object',
          additionalProperties: false,
          description:
            'Deferred loading: tools not kept loaded get `defer_loading: true` (Anthropic, OpenAI Responses), the tool search tool listed last.',
          properties: {
            loaded: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              description: 'Tool names that stay loaded.',
            },
            loadedCategories: {
              type: 'array',
              items: { type: 'string', minLength: 1 },
              description: 'Categories whose tools stay loaded.',
            },
            anthropicSearch: {
              type: 'string',
              enum: ['bm25', 'regex'],
              default: 'bm25',
              description: "Anthropic's tool search tool: BM25 (natural-language queries) or regex.",
            },
            namespaces: {
              type: 'boolean',
              default: false,
              description:
                'Also write `manifests/openai-responses-namespaced.json`: one namespace of deferred functions per category (over 10 is a warning).',
            },
          },
        },
        inputExamples: {
          type: 'integer',
          minimum: 0,
          default: 5,
          description:
            "The most of a definition's `examples` an Anthropic entry carries as `input_examples`, the most different first; 0 leaves them out.",
        },
        examplesInDescriptions: {
          type: 'boolean',
          default: false,
          description:
            "Append a definition's examples to the description in targets without an examples field (all but Anthropic), at most `inputExamples`.",
        },
        describeErrors: {
          type: 'boolean',
          default: false,
          description:
            "Append a definition's declared `errors` (code, whether it is retryable, what it means) to the description in every target.",
        },
        hosts: {
          type: 'array',
          uniqueItems: true,
          description:
            'The MCP hosts the project targets (`docs/hosts.md`): a tool a listed host rejects, or that takes its server down, under the served profile is a warning. The host report (`manifests/loss-report.*`) lists every host either way.',
          items: {
            title: 'host',
            type: 'string',
            enum: [
              'gemini-cli',
              'cursor',
              'claude-code',
              'claude-desktop',
              'codex',
              'chatgpt',
              'vscode-copilot-gpt-4',
              'vscode-copilot-claude',
              'vscode-copilot-gemini',
              'vscode-copilot',
              'visual-studio',
              'windsurf',
              'mcp-inspector',
            ],
          },
        },
        servedProfile: {
          type: 'string',
          enum: ['exact', 'portable'],
          default: 'exact',
          description:
            "What `toolsmith serve` lists: each tool's `exact` schema (`manifests/mcp.json`), or the `portable` one every host takes as it is (`manifests/mcp-portable.json`, written with this setting). Flag: `serve --profile`.",
        },
        serverName: {
          type: 'string',
          minLength: 1,
          default: 'toolsmith',
          description:
            "The server's name in the hosts' configurations: some put it in every tool name (Gemini CLI: `mcp_<server>_<tool>`, 63 characters in all).",
        },
        tokenReport: {
          type: 'boolean',
          default: true,
          description:
            "Count each tool's entry cost per target into `manifests/token-report.json`; `false` counts nothing (and allows no `tokenBudget`).",
        },
        tokenBudget: {
          type: 'object',
          additionalProperties: false,
          description:
            'Token budgets per target (as the token report counts): over budget is a warning naming the biggest tools, a problem with `strict`.',
          properties: {
            openai: {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/openai.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            'openai-strict': {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/openai-strict.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            'openai-responses': {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/openai-responses.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            'openai-responses-strict': {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/openai-responses-strict.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            anthropic: {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/anthropic.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            gemini: {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/gemini.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            'gemini-legacy': {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/gemini-legacy.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            mcp: {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/mcp.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
            'mcp-portable': {
              type: 'object',
              additionalProperties: false,
              description: 'The budget of manifests/mcp-portable.json.',
              properties: {
                total: {
                  type: 'integer',
                  minimum: 0,
                  description: 'The most tokens every tool entry of the manifest may cost together.',
                },
                perTool: { type: 'integer', minimum: 0, description: "The most tokens any one tool's entry may cost." },
              },
            },
          },
        },
      },
    },
    entry: {
      type: 'string',
      minLength: 1,
      description:
        'The module `call` and `serve` take their orchestrator from: default export a `ToolOrchestrator`, its options, or a function. `--entry`.',
    },
    capabilities: {
      type: 'array',
      items: { type: 'string' },
      description: 'The capabilities of the persona `call` and `serve` act as. Flag: `--capability` (repeatable).',
    },
    injectedArguments: {
      type: 'array',
      description:
        "The arguments MCP hosts add to every call for their own bookkeeping, which `serve` takes out of a call before validating it when the tool declares no property of that name (`docs/hosts.md`). Default: those of the host table (Gemini CLI's `wait_for_previous`); `[]` takes nothing out.",
      items: {
        title: 'injected argument',
        type: 'object',
        additionalProperties: false,
        required: ['name', 'host'],
        properties: {
          name: { type: 'string', minLength: 1, description: 'The argument, as the host sends it in `arguments`.' },
          host: {
            type: 'string',
            minLength: 1,
            description: 'The host that sends it (a host id, or your own name for it).',
          },
        },
      },
    },
    toolFailureMeta: {
      type: 'boolean',
      default: false,
      description:
        '`serve`: a failed call\'s structured failure also in the draft SEP-3313 shape, `_meta["io.modelcontextprotocol/toolFailure"]`, beside toolsmith\'s own `_meta["dev.toolsmith/failure"]` (`docs/failures.md`). The proposal is a draft and may change. Flag: `serve --tool-failure-meta`.',
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
        'Threads emitting tools in a full generate or check (default: `TOOLSMITH_WORKERS`, else one per core); 1: in process. `--workers`.',
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
          if (!func2.call(schema11.properties.manifests.properties, key1)) {
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
                data9 === 'mcp' ||
                data9 === 'mcp-portable'
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
        if (data7.deferLoading !== undefined) {
          let data12 = data7.deferLoading;
          if (data12 && typeof data12 == 'object' && !Array.isArray(data12)) {
            for (const key2 in data12) {
              if (!(
                key2 === 'loaded' ||
                key2 === 'loadedCategories' ||
                key2 === 'anthropicSearch' ||
                key2 === 'namespaces'
              )) {
                const err21 = {
                  instancePath: instancePath + '/manifests/deferLoading',
                  schemaPath: '#/properties/manifests/properties/deferLoading/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key2 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err21];
                } else {
                  vErrors.push(err21);
                }
                errors++;
              }
            }
            if (data12.loaded !== undefined) {
              let data13 = data12.loaded;
              if (Array.isArray(data13)) {
                const len1 = data13.length;
                for (let i1 = 0; i1 < len1; i1++) {
                  let data14 = data13[i1];
                  if (typeof data14 === 'string') {
                    if (data14.length < 1) {
                      const err22 = {
                        instancePath: instancePath + '/manifests/deferLoading/loaded/' + i1,
                        schemaPath: '#/properties/manifests/properties/deferLoading/properties/loaded/items/minLength',
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
                      instancePath: instancePath + '/manifests/deferLoading/loaded/' + i1,
                      schemaPath: '#/properties/manifests/properties/deferLoading/properties/loaded/items/type',
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
              } else {
                const err24 = {
                  instancePath: instancePath + '/manifests/deferLoading/loaded',
                  schemaPath: '#/properties/manifests/properties/deferLoading/properties/loaded/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err24];
                } else {
                  vErrors.push(err24);
                }
                errors++;
              }
            }
            if (data12.loadedCategories !== undefined) {
              let data15 = data12.loadedCategories;
              if (Array.isArray(data15)) {
                const len2 = data15.length;
                for (let i2 = 0; i2 < len2; i2++) {
                  let data16 = data15[i2];
                  if (typeof data16 === 'string') {
                    if (data16.length < 1) {
                      const err25 = {
                        instancePath: instancePath + '/manifests/deferLoading/loadedCategories/' + i2,
                        schemaPath:
                          '#/properties/manifests/properties/deferLoading/properties/loadedCategories/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err25];
                      } else {
                        vErrors.push(err25);
                      }
                      errors++;
                    }
                  } else {
                    const err26 = {
                      instancePath: instancePath + '/manifests/deferLoading/loadedCategories/' + i2,
                      schemaPath:
                        '#/properties/manifests/properties/deferLoading/properties/loadedCategories/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err26];
                    } else {
                      vErrors.push(err26);
                    }
                    errors++;
                  }
                }
              } else {
                const err27 = {
                  instancePath: instancePath + '/manifests/deferLoading/loadedCategories',
                  schemaPath: '#/properties/manifests/properties/deferLoading/properties/loadedCategories/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err27];
                } else {
                  vErrors.push(err27);
                }
                errors++;
              }
            }
            if (data12.anthropicSearch !== undefined) {
              let data17 = data12.anthropicSearch;
              if (typeof data17 !== 'string') {
                const err28 = {
                  instancePath: instancePath + '/manifests/deferLoading/anthropicSearch',
                  schemaPath: '#/properties/manifests/properties/deferLoading/properties/anthropicSearch/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err28];
                } else {
                  vErrors.push(err28);
                }
                errors++;
              }
              if (!(data17 === 'bm25' || data17 === 'regex')) {
                const err29 = {
                  instancePath: instancePath + '/manifests/deferLoading/anthropicSearch',
                  schemaPath: '#/properties/manifests/properties/deferLoading/properties/anthropicSearch/enum',
                  keyword: 'enum',
                  params: {
                    allowedValues:
                      schema11.properties.manifests.properties.deferLoading.properties.anthropicSearch.enum,
                  },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err29];
                } else {
                  vErrors.push(err29);
                }
                errors++;
              }
            }
            if (data12.namespaces !== undefined) {
              if (typeof data12.namespaces !== 'boolean') {
                const err30 = {
                  instancePath: instancePath + '/manifests/deferLoading/namespaces',
                  schemaPath: '#/properties/manifests/properties/deferLoading/properties/namespaces/type',
                  keyword: 'type',
                  params: { type: 'boolean' },
                  message: 'must be boolean',
                };
                if (vErrors === null) {
                  vErrors = [err30];
                } else {
                  vErrors.push(err30);
                }
                errors++;
              }
            }
          } else {
            const err31 = {
              instancePath: instancePath + '/manifests/deferLoading',
              schemaPath: '#/properties/manifests/properties/deferLoading/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err31];
            } else {
              vErrors.push(err31);
            }
            errors++;
          }
        }
        if (data7.inputExamples !== undefined) {
          let data19 = data7.inputExamples;
          if (!(typeof data19 == 'number' && !(data19 % 1) && !isNaN(data19) && isFinite(data19))) {
            const err32 = {
              instancePath: instancePath + '/manifests/inputExamples',
              schemaPath: '#/properties/manifests/properties/inputExamples/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err32];
            } else {
              vErrors.push(err32);
            }
            errors++;
          }
          if (typeof data19 == 'number' && isFinite(data19)) {
            if (data19 < 0 || isNaN(data19)) {
              const err33 = {
                instancePath: instancePath + '/manifests/inputExamples',
                schemaPath: '#/properties/manifests/properties/inputExamples/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err33];
              } else {
                vErrors.push(err33);
              }
              errors++;
            }
          }
        }
        if (data7.examplesInDescriptions !== undefined) {
          if (typeof data7.examplesInDescriptions !== 'boolean') {
            const err34 = {
              instancePath: instancePath + '/manifests/examplesInDescriptions',
              schemaPath: '#/properties/manifests/properties/examplesInDescriptions/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err34];
            } else {
              vErrors.push(err34);
            }
            errors++;
          }
        }
        if (data7.describeErrors !== undefined) {
          if (typeof data7.describeErrors !== 'boolean') {
            const err35 = {
              instancePath: instancePath + '/manifests/describeErrors',
              schemaPath: '#/properties/manifests/properties/describeErrors/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err35];
            } else {
              vErrors.push(err35);
            }
            errors++;
          }
        }
        if (data7.hosts !== undefined) {
          let data22 = data7.hosts;
          if (Array.isArray(data22)) {
            const len3 = data22.length;
            for (let i3 = 0; i3 < len3; i3++) {
              let data23 = data22[i3];
              if (typeof data23 !== 'string') {
                const err36 = {
                  instancePath: instancePath + '/manifests/hosts/' + i3,
                  schemaPath: '#/properties/manifests/properties/hosts/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err36];
                } else {
                  vErrors.push(err36);
                }
                errors++;
              }
              if (!(
                data23 === 'gemini-cli' ||
                data23 === 'cursor' ||
                data23 === 'claude-code' ||
                data23 === 'claude-desktop' ||
                data23 === 'codex' ||
                data23 === 'chatgpt' ||
                data23 === 'vscode-copilot-gpt-4' ||
                data23 === 'vscode-copilot-claude' ||
                data23 === 'vscode-copilot-gemini' ||
                data23 === 'vscode-copilot' ||
                data23 === 'visual-studio' ||
                data23 === 'windsurf' ||
                data23 === 'mcp-inspector'
              )) {
                const err37 = {
                  instancePath: instancePath + '/manifests/hosts/' + i3,
                  schemaPath: '#/properties/manifests/properties/hosts/items/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.manifests.properties.hosts.items.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err37];
                } else {
                  vErrors.push(err37);
                }
                errors++;
              }
            }
            let i4 = data22.length;
            let j0;
            if (i4 > 1) {
              const indices0 = {};
              for (; i4--;) {
                let item0 = data22[i4];
                if (typeof item0 !== 'string') {
                  continue;
                }
                if (typeof indices0[item0] == 'number') {
                  j0 = indices0[item0];
                  const err38 = {
                    instancePath: instancePath + '/manifests/hosts',
                    schemaPath: '#/properties/manifests/properties/hosts/uniqueItems',
                    keyword: 'uniqueItems',
                    params: { i: i4, j: j0 },
                    message: 'must NOT have duplicate items (items ## ' + j0 + ' and ' + i4 + ' are identical)',
                  };
                  if (vErrors === null) {
                    vErrors = [err38];
                  } else {
                    vErrors.push(err38);
                  }
                  errors++;
                  break;
                }
                indices0[item0] = i4;
              }
            }
          } else {
            const err39 = {
              instancePath: instancePath + '/manifests/hosts',
              schemaPath: '#/properties/manifests/properties/hosts/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err39];
            } else {
              vErrors.push(err39);
            }
            errors++;
          }
        }
        if (data7.servedProfile !== undefined) {
          let data24 = data7.servedProfile;
          if (typeof data24 !== 'string') {
            const err40 = {
              instancePath: instancePath + '/manifests/servedProfile',
              schemaPath: '#/properties/manifests/properties/servedProfile/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err40];
            } else {
              vErrors.push(err40);
            }
            errors++;
          }
          if (!(data24 === 'exact' || data24 === 'portable')) {
            const err41 = {
              instancePath: instancePath + '/manifests/servedProfile',
              schemaPath: '#/properties/manifests/properties/servedProfile/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.manifests.properties.servedProfile.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err41];
            } else {
              vErrors.push(err41);
            }
            errors++;
          }
        }
        if (data7.serverName !== undefined) {
          let data25 = data7.serverName;
          if (typeof data25 === 'string') {
            if (data25.length < 1) {
              const err42 = {
                instancePath: instancePath + '/manifests/serverName',
                schemaPath: '#/properties/manifests/properties/serverName/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err42];
              } else {
                vErrors.push(err42);
              }
              errors++;
            }
          } else {
            const err43 = {
              instancePath: instancePath + '/manifests/serverName',
              schemaPath: '#/properties/manifests/properties/serverName/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err43];
            } else {
              vErrors.push(err43);
            }
            errors++;
          }
        }
        if (data7.tokenReport !== undefined) {
          if (typeof data7.tokenReport !== 'boolean') {
            const err44 = {
              instancePath: instancePath + '/manifests/tokenReport',
              schemaPath: '#/properties/manifests/properties/tokenReport/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err44];
            } else {
              vErrors.push(err44);
            }
            errors++;
          }
        }
        if (data7.tokenBudget !== undefined) {
          let data27 = data7.tokenBudget;
          if (data27 && typeof data27 == 'object' && !Array.isArray(data27)) {
            for (const key3 in data27) {
              if (!func2.call(schema11.properties.manifests.properties.tokenBudget.properties, key3)) {
                const err45 = {
                  instancePath: instancePath + '/manifests/tokenBudget',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key3 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err45];
                } else {
                  vErrors.push(err45);
                }
                errors++;
              }
            }
            if (data27.openai !== undefined) {
              let data28 = data27.openai;
              if (data28 && typeof data28 == 'object' && !Array.isArray(data28)) {
                for (const key4 in data28) {
                  if (!(key4 === 'total' || key4 === 'perTool')) {
                    const err46 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key4 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err46];
                    } else {
                      vErrors.push(err46);
                    }
                    errors++;
                  }
                }
                if (data28.total !== undefined) {
                  let data29 = data28.total;
                  if (!(typeof data29 == 'number' && !(data29 % 1) && !isNaN(data29) && isFinite(data29))) {
                    const err47 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err47];
                    } else {
                      vErrors.push(err47);
                    }
                    errors++;
                  }
                  if (typeof data29 == 'number' && isFinite(data29)) {
                    if (data29 < 0 || isNaN(data29)) {
                      const err48 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err48];
                      } else {
                        vErrors.push(err48);
                      }
                      errors++;
                    }
                  }
                }
                if (data28.perTool !== undefined) {
                  let data30 = data28.perTool;
                  if (!(typeof data30 == 'number' && !(data30 % 1) && !isNaN(data30) && isFinite(data30))) {
                    const err49 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err49];
                    } else {
                      vErrors.push(err49);
                    }
                    errors++;
                  }
                  if (typeof data30 == 'number' && isFinite(data30)) {
                    if (data30 < 0 || isNaN(data30)) {
                      const err50 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err50];
                      } else {
                        vErrors.push(err50);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err51 = {
                  instancePath: instancePath + '/manifests/tokenBudget/openai',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/openai/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err51];
                } else {
                  vErrors.push(err51);
                }
                errors++;
              }
            }
            if (data27['openai-strict'] !== undefined) {
              let data31 = data27['openai-strict'];
              if (data31 && typeof data31 == 'object' && !Array.isArray(data31)) {
                for (const key5 in data31) {
                  if (!(key5 === 'total' || key5 === 'perTool')) {
                    const err52 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-strict',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-strict/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key5 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err52];
                    } else {
                      vErrors.push(err52);
                    }
                    errors++;
                  }
                }
                if (data31.total !== undefined) {
                  let data32 = data31.total;
                  if (!(typeof data32 == 'number' && !(data32 % 1) && !isNaN(data32) && isFinite(data32))) {
                    const err53 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-strict/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-strict/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err53];
                    } else {
                      vErrors.push(err53);
                    }
                    errors++;
                  }
                  if (typeof data32 == 'number' && isFinite(data32)) {
                    if (data32 < 0 || isNaN(data32)) {
                      const err54 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-strict/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-strict/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err54];
                      } else {
                        vErrors.push(err54);
                      }
                      errors++;
                    }
                  }
                }
                if (data31.perTool !== undefined) {
                  let data33 = data31.perTool;
                  if (!(typeof data33 == 'number' && !(data33 % 1) && !isNaN(data33) && isFinite(data33))) {
                    const err55 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-strict/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-strict/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err55];
                    } else {
                      vErrors.push(err55);
                    }
                    errors++;
                  }
                  if (typeof data33 == 'number' && isFinite(data33)) {
                    if (data33 < 0 || isNaN(data33)) {
                      const err56 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-strict/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-strict/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err56];
                      } else {
                        vErrors.push(err56);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err57 = {
                  instancePath: instancePath + '/manifests/tokenBudget/openai-strict',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/openai-strict/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err57];
                } else {
                  vErrors.push(err57);
                }
                errors++;
              }
            }
            if (data27['openai-responses'] !== undefined) {
              let data34 = data27['openai-responses'];
              if (data34 && typeof data34 == 'object' && !Array.isArray(data34)) {
                for (const key6 in data34) {
                  if (!(key6 === 'total' || key6 === 'perTool')) {
                    const err58 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key6 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err58];
                    } else {
                      vErrors.push(err58);
                    }
                    errors++;
                  }
                }
                if (data34.total !== undefined) {
                  let data35 = data34.total;
                  if (!(typeof data35 == 'number' && !(data35 % 1) && !isNaN(data35) && isFinite(data35))) {
                    const err59 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err59];
                    } else {
                      vErrors.push(err59);
                    }
                    errors++;
                  }
                  if (typeof data35 == 'number' && isFinite(data35)) {
                    if (data35 < 0 || isNaN(data35)) {
                      const err60 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-responses/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-responses/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err60];
                      } else {
                        vErrors.push(err60);
                      }
                      errors++;
                    }
                  }
                }
                if (data34.perTool !== undefined) {
                  let data36 = data34.perTool;
                  if (!(typeof data36 == 'number' && !(data36 % 1) && !isNaN(data36) && isFinite(data36))) {
                    const err61 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err61];
                    } else {
                      vErrors.push(err61);
                    }
                    errors++;
                  }
                  if (typeof data36 == 'number' && isFinite(data36)) {
                    if (data36 < 0 || isNaN(data36)) {
                      const err62 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-responses/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-responses/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err62];
                      } else {
                        vErrors.push(err62);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err63 = {
                  instancePath: instancePath + '/manifests/tokenBudget/openai-responses',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/openai-responses/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err63];
                } else {
                  vErrors.push(err63);
                }
                errors++;
              }
            }
            if (data27['openai-responses-strict'] !== undefined) {
              let data37 = data27['openai-responses-strict'];
              if (data37 && typeof data37 == 'object' && !Array.isArray(data37)) {
                for (const key7 in data37) {
                  if (!(key7 === 'total' || key7 === 'perTool')) {
                    const err64 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key7 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err64];
                    } else {
                      vErrors.push(err64);
                    }
                    errors++;
                  }
                }
                if (data37.total !== undefined) {
                  let data38 = data37.total;
                  if (!(typeof data38 == 'number' && !(data38 % 1) && !isNaN(data38) && isFinite(data38))) {
                    const err65 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err65];
                    } else {
                      vErrors.push(err65);
                    }
                    errors++;
                  }
                  if (typeof data38 == 'number' && isFinite(data38)) {
                    if (data38 < 0 || isNaN(data38)) {
                      const err66 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err66];
                      } else {
                        vErrors.push(err66);
                      }
                      errors++;
                    }
                  }
                }
                if (data37.perTool !== undefined) {
                  let data39 = data37.perTool;
                  if (!(typeof data39 == 'number' && !(data39 % 1) && !isNaN(data39) && isFinite(data39))) {
                    const err67 = {
                      instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err67];
                    } else {
                      vErrors.push(err67);
                    }
                    errors++;
                  }
                  if (typeof data39 == 'number' && isFinite(data39)) {
                    if (data39 < 0 || isNaN(data39)) {
                      const err68 = {
                        instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err68];
                      } else {
                        vErrors.push(err68);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err69 = {
                  instancePath: instancePath + '/manifests/tokenBudget/openai-responses-strict',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/openai-responses-strict/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err69];
                } else {
                  vErrors.push(err69);
                }
                errors++;
              }
            }
            if (data27.anthropic !== undefined) {
              let data40 = data27.anthropic;
              if (data40 && typeof data40 == 'object' && !Array.isArray(data40)) {
                for (const key8 in data40) {
                  if (!(key8 === 'total' || key8 === 'perTool')) {
                    const err70 = {
                      instancePath: instancePath + '/manifests/tokenBudget/anthropic',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/anthropic/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key8 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err70];
                    } else {
                      vErrors.push(err70);
                    }
                    errors++;
                  }
                }
                if (data40.total !== undefined) {
                  let data41 = data40.total;
                  if (!(typeof data41 == 'number' && !(data41 % 1) && !isNaN(data41) && isFinite(data41))) {
                    const err71 = {
                      instancePath: instancePath + '/manifests/tokenBudget/anthropic/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/anthropic/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err71];
                    } else {
                      vErrors.push(err71);
                    }
                    errors++;
                  }
                  if (typeof data41 == 'number' && isFinite(data41)) {
                    if (data41 < 0 || isNaN(data41)) {
                      const err72 = {
                        instancePath: instancePath + '/manifests/tokenBudget/anthropic/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/anthropic/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err72];
                      } else {
                        vErrors.push(err72);
                      }
                      errors++;
                    }
                  }
                }
                if (data40.perTool !== undefined) {
                  let data42 = data40.perTool;
                  if (!(typeof data42 == 'number' && !(data42 % 1) && !isNaN(data42) && isFinite(data42))) {
                    const err73 = {
                      instancePath: instancePath + '/manifests/tokenBudget/anthropic/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/anthropic/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err73];
                    } else {
                      vErrors.push(err73);
                    }
                    errors++;
                  }
                  if (typeof data42 == 'number' && isFinite(data42)) {
                    if (data42 < 0 || isNaN(data42)) {
                      const err74 = {
                        instancePath: instancePath + '/manifests/tokenBudget/anthropic/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/anthropic/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err74];
                      } else {
                        vErrors.push(err74);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err75 = {
                  instancePath: instancePath + '/manifests/tokenBudget/anthropic',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/anthropic/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err75];
                } else {
                  vErrors.push(err75);
                }
                errors++;
              }
            }
            if (data27.gemini !== undefined) {
              let data43 = data27.gemini;
              if (data43 && typeof data43 == 'object' && !Array.isArray(data43)) {
                for (const key9 in data43) {
                  if (!(key9 === 'total' || key9 === 'perTool')) {
                    const err76 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key9 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err76];
                    } else {
                      vErrors.push(err76);
                    }
                    errors++;
                  }
                }
                if (data43.total !== undefined) {
                  let data44 = data43.total;
                  if (!(typeof data44 == 'number' && !(data44 % 1) && !isNaN(data44) && isFinite(data44))) {
                    const err77 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err77];
                    } else {
                      vErrors.push(err77);
                    }
                    errors++;
                  }
                  if (typeof data44 == 'number' && isFinite(data44)) {
                    if (data44 < 0 || isNaN(data44)) {
                      const err78 = {
                        instancePath: instancePath + '/manifests/tokenBudget/gemini/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/gemini/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err78];
                      } else {
                        vErrors.push(err78);
                      }
                      errors++;
                    }
                  }
                }
                if (data43.perTool !== undefined) {
                  let data45 = data43.perTool;
                  if (!(typeof data45 == 'number' && !(data45 % 1) && !isNaN(data45) && isFinite(data45))) {
                    const err79 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err79];
                    } else {
                      vErrors.push(err79);
                    }
                    errors++;
                  }
                  if (typeof data45 == 'number' && isFinite(data45)) {
                    if (data45 < 0 || isNaN(data45)) {
                      const err80 = {
                        instancePath: instancePath + '/manifests/tokenBudget/gemini/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/gemini/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err80];
                      } else {
                        vErrors.push(err80);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err81 = {
                  instancePath: instancePath + '/manifests/tokenBudget/gemini',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/gemini/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err81];
                } else {
                  vErrors.push(err81);
                }
                errors++;
              }
            }
            if (data27['gemini-legacy'] !== undefined) {
              let data46 = data27['gemini-legacy'];
              if (data46 && typeof data46 == 'object' && !Array.isArray(data46)) {
                for (const key10 in data46) {
                  if (!(key10 === 'total' || key10 === 'perTool')) {
                    const err82 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key10 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err82];
                    } else {
                      vErrors.push(err82);
                    }
                    errors++;
                  }
                }
                if (data46.total !== undefined) {
                  let data47 = data46.total;
                  if (!(typeof data47 == 'number' && !(data47 % 1) && !isNaN(data47) && isFinite(data47))) {
                    const err83 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err83];
                    } else {
                      vErrors.push(err83);
                    }
                    errors++;
                  }
                  if (typeof data47 == 'number' && isFinite(data47)) {
                    if (data47 < 0 || isNaN(data47)) {
                      const err84 = {
                        instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err84];
                      } else {
                        vErrors.push(err84);
                      }
                      errors++;
                    }
                  }
                }
                if (data46.perTool !== undefined) {
                  let data48 = data46.perTool;
                  if (!(typeof data48 == 'number' && !(data48 % 1) && !isNaN(data48) && isFinite(data48))) {
                    const err85 = {
                      instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err85];
                    } else {
                      vErrors.push(err85);
                    }
                    errors++;
                  }
                  if (typeof data48 == 'number' && isFinite(data48)) {
                    if (data48 < 0 || isNaN(data48)) {
                      const err86 = {
                        instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err86];
                      } else {
                        vErrors.push(err86);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err87 = {
                  instancePath: instancePath + '/manifests/tokenBudget/gemini-legacy',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/gemini-legacy/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err87];
                } else {
                  vErrors.push(err87);
                }
                errors++;
              }
            }
            if (data27.mcp !== undefined) {
              let data49 = data27.mcp;
              if (data49 && typeof data49 == 'object' && !Array.isArray(data49)) {
                for (const key11 in data49) {
                  if (!(key11 === 'total' || key11 === 'perTool')) {
                    const err88 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp',
                      schemaPath: '#/properties/manifests/properties/tokenBudget/properties/mcp/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key11 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err88];
                    } else {
                      vErrors.push(err88);
                    }
                    errors++;
                  }
                }
                if (data49.total !== undefined) {
                  let data50 = data49.total;
                  if (!(typeof data50 == 'number' && !(data50 % 1) && !isNaN(data50) && isFinite(data50))) {
                    const err89 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp/total',
                      schemaPath: '#/properties/manifests/properties/tokenBudget/properties/mcp/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err89];
                    } else {
                      vErrors.push(err89);
                    }
                    errors++;
                  }
                  if (typeof data50 == 'number' && isFinite(data50)) {
                    if (data50 < 0 || isNaN(data50)) {
                      const err90 = {
                        instancePath: instancePath + '/manifests/tokenBudget/mcp/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/mcp/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err90];
                      } else {
                        vErrors.push(err90);
                      }
                      errors++;
                    }
                  }
                }
                if (data49.perTool !== undefined) {
                  let data51 = data49.perTool;
                  if (!(typeof data51 == 'number' && !(data51 % 1) && !isNaN(data51) && isFinite(data51))) {
                    const err91 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/mcp/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err91];
                    } else {
                      vErrors.push(err91);
                    }
                    errors++;
                  }
                  if (typeof data51 == 'number' && isFinite(data51)) {
                    if (data51 < 0 || isNaN(data51)) {
                      const err92 = {
                        instancePath: instancePath + '/manifests/tokenBudget/mcp/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/mcp/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err92];
                      } else {
                        vErrors.push(err92);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err93 = {
                  instancePath: instancePath + '/manifests/tokenBudget/mcp',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/mcp/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err93];
                } else {
                  vErrors.push(err93);
                }
                errors++;
              }
            }
            if (data27['mcp-portable'] !== undefined) {
              let data52 = data27['mcp-portable'];
              if (data52 && typeof data52 == 'object' && !Array.isArray(data52)) {
                for (const key12 in data52) {
                  if (!(key12 === 'total' || key12 === 'perTool')) {
                    const err94 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp-portable',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key12 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err94];
                    } else {
                      vErrors.push(err94);
                    }
                    errors++;
                  }
                }
                if (data52.total !== undefined) {
                  let data53 = data52.total;
                  if (!(typeof data53 == 'number' && !(data53 % 1) && !isNaN(data53) && isFinite(data53))) {
                    const err95 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp-portable/total',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/properties/total/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err95];
                    } else {
                      vErrors.push(err95);
                    }
                    errors++;
                  }
                  if (typeof data53 == 'number' && isFinite(data53)) {
                    if (data53 < 0 || isNaN(data53)) {
                      const err96 = {
                        instancePath: instancePath + '/manifests/tokenBudget/mcp-portable/total',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/properties/total/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err96];
                      } else {
                        vErrors.push(err96);
                      }
                      errors++;
                    }
                  }
                }
                if (data52.perTool !== undefined) {
                  let data54 = data52.perTool;
                  if (!(typeof data54 == 'number' && !(data54 % 1) && !isNaN(data54) && isFinite(data54))) {
                    const err97 = {
                      instancePath: instancePath + '/manifests/tokenBudget/mcp-portable/perTool',
                      schemaPath:
                        '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/properties/perTool/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err97];
                    } else {
                      vErrors.push(err97);
                    }
                    errors++;
                  }
                  if (typeof data54 == 'number' && isFinite(data54)) {
                    if (data54 < 0 || isNaN(data54)) {
                      const err98 = {
                        instancePath: instancePath + '/manifests/tokenBudget/mcp-portable/perTool',
                        schemaPath:
                          '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/properties/perTool/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 0 },
                        message: 'must be >= 0',
                      };
                      if (vErrors === null) {
                        vErrors = [err98];
                      } else {
                        vErrors.push(err98);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err99 = {
                  instancePath: instancePath + '/manifests/tokenBudget/mcp-portable',
                  schemaPath: '#/properties/manifests/properties/tokenBudget/properties/mcp-portable/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err99];
                } else {
                  vErrors.push(err99);
                }
                errors++;
              }
            }
          } else {
            const err100 = {
              instancePath: instancePath + '/manifests/tokenBudget',
              schemaPath: '#/properties/manifests/properties/tokenBudget/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err100];
            } else {
              vErrors.push(err100);
            }
            errors++;
          }
        }
      } else {
        const err101 = {
          instancePath: instancePath + '/manifests',
          schemaPath: '#/properties/manifests/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err101];
        } else {
          vErrors.push(err101);
        }
        errors++;
      }
    }
    if (data.entry !== undefined) {
      let data55 = data.entry;
      if (typeof data55 === 'string') {
        if (data55.length < 1) {
          const err102 = {
            instancePath: instancePath + '/entry',
            schemaPath: '#/properties/entry/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err102];
          } else {
            vErrors.push(err102);
          }
          errors++;
        }
      } else {
        const err103 = {
          instancePath: instancePath + '/entry',
          schemaPath: '#/properties/entry/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err103];
        } else {
          vErrors.push(err103);
        }
        errors++;
      }
    }
    if (data.capabilities !== undefined) {
      let data56 = data.capabilities;
      if (Array.isArray(data56)) {
        const len4 = data56.length;
        for (let i5 = 0; i5 < len4; i5++) {
          if (typeof data56[i5] !== 'string') {
            const err104 = {
              instancePath: instancePath + '/capabilities/' + i5,
              schemaPath: '#/properties/capabilities/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err104];
            } else {
              vErrors.push(err104);
            }
            errors++;
          }
        }
      } else {
        const err105 = {
          instancePath: instancePath + '/capabilities',
          schemaPath: '#/properties/capabilities/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err105];
        } else {
          vErrors.push(err105);
        }
        errors++;
      }
    }
    if (data.injectedArguments !== undefined) {
      let data58 = data.injectedArguments;
      if (Array.isArray(data58)) {
        const len5 = data58.length;
        for (let i6 = 0; i6 < len5; i6++) {
          let data59 = data58[i6];
          if (data59 && typeof data59 == 'object' && !Array.isArray(data59)) {
            if (data59.name === undefined) {
              const err106 = {
                instancePath: instancePath + '/injectedArguments/' + i6,
                schemaPath: '#/properties/injectedArguments/items/required',
                keyword: 'required',
                params: { missingProperty: 'name' },
                message: "must have required property '" + 'name' + "'",
              };
              if (vErrors === null) {
                vErrors = [err106];
              } else {
                vErrors.push(err106);
              }
              errors++;
            }
            if (data59.host === undefined) {
              const err107 = {
                instancePath: instancePath + '/injectedArguments/' + i6,
                schemaPath: '#/properties/injectedArguments/items/required',
                keyword: 'required',
                params: { missingProperty: 'host' },
                message: "must have required property '" + 'host' + "'",
              };
              if (vErrors === null) {
                vErrors = [err107];
              } else {
                vErrors.push(err107);
              }
              errors++;
            }
            for (const key13 in data59) {
              if (!(key13 === 'name' || key13 === 'host')) {
                const err108 = {
                  instancePath: instancePath + '/injectedArguments/' + i6,
                  schemaPath: '#/properties/injectedArguments/items/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key13 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err108];
                } else {
                  vErrors.push(err108);
                }
                errors++;
              }
            }
            if (data59.name !== undefined) {
              let data60 = data59.name;
              if (typeof data60 === 'string') {
                if (data60.length < 1) {
                  const err109 = {
                    instancePath: instancePath + '/injectedArguments/' + i6 + '/name',
                    schemaPath: '#/properties/injectedArguments/items/properties/name/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err109];
                  } else {
                    vErrors.push(err109);
                  }
                  errors++;
                }
              } else {
                const err110 = {
                  instancePath: instancePath + '/injectedArguments/' + i6 + '/name',
                  schemaPath: '#/properties/injectedArguments/items/properties/name/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err110];
                } else {
                  vErrors.push(err110);
                }
                errors++;
              }
            }
            if (data59.host !== undefined) {
              let data61 = data59.host;
              if (typeof data61 === 'string') {
                if (data61.length < 1) {
                  const err111 = {
                    instancePath: instancePath + '/injectedArguments/' + i6 + '/host',
                    schemaPath: '#/properties/injectedArguments/items/properties/host/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err111];
                  } else {
                    vErrors.push(err111);
                  }
                  errors++;
                }
              } else {
                const err112 = {
                  instancePath: instancePath + '/injectedArguments/' + i6 + '/host',
                  schemaPath: '#/properties/injectedArguments/items/properties/host/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err112];
                } else {
                  vErrors.push(err112);
                }
                errors++;
              }
            }
          } else {
            const err113 = {
              instancePath: instancePath + '/injectedArguments/' + i6,
              schemaPath: '#/properties/injectedArguments/items/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err113];
            } else {
              vErrors.push(err113);
            }
            errors++;
          }
        }
      } else {
        const err114 = {
          instancePath: instancePath + '/injectedArguments',
          schemaPath: '#/properties/injectedArguments/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err114];
        } else {
          vErrors.push(err114);
        }
        errors++;
      }
    }
    if (data.toolFailureMeta !== undefined) {
      if (typeof data.toolFailureMeta !== 'boolean') {
        const err115 = {
          instancePath: instancePath + '/toolFailureMeta',
          schemaPath: '#/properties/toolFailureMeta/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err115];
        } else {
          vErrors.push(err115);
        }
        errors++;
      }
    }
    if (data.format !== undefined) {
      if (typeof data.format !== 'boolean') {
        const err116 = {
          instancePath: instancePath + '/format',
          schemaPath: '#/properties/format/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err116];
        } else {
          vErrors.push(err116);
        }
        errors++;
      }
    }
    if (data.strict !== undefined) {
      if (typeof data.strict !== 'boolean') {
        const err117 = {
          instancePath: instancePath + '/strict',
          schemaPath: '#/properties/strict/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err117];
        } else {
          vErrors.push(err117);
        }
        errors++;
      }
    }
    if (data.workers !== undefined) {
      let data65 = data.workers;
      if (!(typeof data65 == 'number' && !(data65 % 1) && !isNaN(data65) && isFinite(data65))) {
        const err118 = {
          instancePath: instancePath + '/workers',
          schemaPath: '#/properties/workers/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err118];
        } else {
          vErrors.push(err118);
        }
        errors++;
      }
      if (typeof data65 == 'number' && isFinite(data65)) {
        if (data65 < 1 || isNaN(data65)) {
          const err119 = {
            instancePath: instancePath + '/workers',
            schemaPath: '#/properties/workers/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 1 },
            message: 'must be >= 1',
          };
          if (vErrors === null) {
            vErrors = [err119];
          } else {
            vErrors.push(err119);
          }
          errors++;
        }
      }
    }
  } else {
    const err120 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err120];
    } else {
      vErrors.push(err120);
    }
    errors++;
  }
  validate10.errors = vErrors;
  return errors === 0;
}
