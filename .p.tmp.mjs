// src/errors.ts
var TOOL_ERROR_CODES = Object.freeze([
  "SHUTTING_DOWN",
  "INVALID_REQUEST",
  "TOOL_NOT_FOUND",
  "ABORTED",
  "REFUSED",
  "PERMISSION_DENIED",
  "TOOL_DISABLED",
  "BUDGET_EXCEEDED",
  "SCHEMA_INVALID",
  "INVALID_ARGUMENTS",
  "APPROVAL_UNAVAILABLE",
  "APPROVAL_REJECTED",
  "APPROVAL_FAILED",
  "QUEUE_FULL",
  "TIMEOUT",
  "TOOL_FAILED",
  "TOOL_ERROR",
  "STEP_FAILED",
  "OUTPUT_INVALID",
  "ALREADY_REGISTERED",
  "INVALID_TOOL"
]);
var ToolsmithError = class extends Error {
  code;
  details;
  constructor(code, message, options) {
    super(message, options?.cause === void 0 ? void 0 : { cause: options.cause });
    this.name = "ToolsmithError";
    this.code = code;
    if (options?.details !== void 0) this.details = options.details;
  }
};
function isToolsmithError(value) {
  return value instanceof ToolsmithError || value instanceof Error && value.name === "ToolsmithError" && typeof value.code === "string";
}
var MAX_ECHO_LENGTH = 200;
function truncateText(text, max = MAX_ECHO_LENGTH) {
  return text.length <= max ? text : `${text.slice(0, max)}\u2026 (${text.length - max} more characters)`;
}
function describeThrown(error, max = 1e3) {
  let text;
  if (error instanceof Error) text = error.message || error.name;
  else if (typeof error === "string") text = error;
  else {
    try {
      text = String(error);
    } catch {
      text = "unprintable value";
    }
  }
  return truncateText(text, max);
}

// src/ajv-options.ts
var AJV_OPTIONS = Object.freeze({
  strict: true,
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  coerceTypes: true,
  useDefaults: true,
  allErrors: true,
  validateFormats: true,
  unicodeRegExp: true
});
var EXTENSION_KEYWORD = /^x-/;
var ANNOTATION_KEYWORDS = Object.freeze(["examples", "deprecated", "readOnly", "writeOnly"]);

// src/validation.ts
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
var addFormats = addFormatsModule.default ?? addFormatsModule;
var MAX_VALIDATION_ISSUES = 100;
var MAX_COPY_DEPTH = 512;
var sharedAjv;
function createAjv() {
  const ajv = new Ajv({ ...AJV_OPTIONS, logger: false });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS) {
    try {
      ajv.addKeyword(keyword);
    } catch {
    }
  }
  return ajv;
}
function allowExtensionKeywords(ajv, schema, seen = /* @__PURE__ */ new Set()) {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) allowExtensionKeywords(ajv, item, seen);
    return;
  }
  for (const key of Object.keys(schema)) {
    if (EXTENSION_KEYWORD.test(key) && !ajv.getKeyword(key)) {
      try {
        ajv.addKeyword(key);
      } catch {
      }
    }
    allowExtensionKeywords(ajv, schema[key], seen);
  }
}
function compileSchema(schema) {
  const ajv = sharedAjv ??= createAjv();
  allowExtensionKeywords(ajv, schema);
  try {
    return ajv.compile(schema);
  } catch (error) {
    if (error instanceof Error && /already exists/.test(error.message)) {
      const fresh = createAjv();
      allowExtensionKeywords(fresh, schema);
      try {
        return fresh.compile(schema);
      } catch (retryError) {
        error = retryError;
      }
    }
    throw new ToolsmithError("SCHEMA_INVALID", `Schema does not compile: ${describeThrown(error, 500)}`, { cause: error });
  }
}
function escapePointerSegment(segment) {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
var POINTER_PROPERTY_PARAM = {
  required: "missingProperty",
  dependencies: "missingProperty",
  additionalProperties: "additionalProperty"
};
function boundedParams(params) {
  if (params === void 0 || params === null) return {};
  let copy;
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (typeof value === "string" && value.length > 1e3) {
      copy ??= { ...params };
      copy[key] = truncateText(value, 1e3);
    }
  }
  return copy ?? params;
}
function toValidationIssues(errors) {
  if (!errors || errors.length === 0) {
    return [{ path: "", message: "(root) is invalid", keyword: "unknown", params: {} }];
  }
  const count = Math.min(errors.length, MAX_VALIDATION_ISSUES);
  const issues = new Array(count);
  for (let index = 0; index < count; index++) {
    const error = errors[index];
    const keyword = error.keyword;
    let path = error.instancePath ?? "";
    const propertyParam = POINTER_PROPERTY_PARAM[keyword];
    const property = propertyParam === void 0 ? void 0 : error.params?.[propertyParam];
    let text;
    if (typeof property === "string") {
      path = `${path}/${escapePointerSegment(property)}`;
      text = keyword === "additionalProperties" ? "is not allowed" : "is required";
    } else {
      text = error.message ?? `fails "${keyword}"`;
    }
    const shownPath = path === "" ? "(root)" : truncateText(path);
    issues[index] = {
      path: path.length > 1e3 ? truncateText(path, 1e3) : path,
      message: `${shownPath} ${text}`,
      keyword,
      params: boundedParams(error.params)
    };
  }
  return issues;
}
function isPlainObject(value) {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
function copyAt(value, depth) {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_COPY_DEPTH) {
    throw new ToolsmithError("INVALID_REQUEST", `Value nests deeper than ${MAX_COPY_DEPTH} levels or contains a cycle.`);
  }
  if (Array.isArray(value)) {
    const length = value.length;
    const copy2 = new Array(length);
    for (let index = 0; index < length; index++) copy2[index] = copyAt(value[index], depth + 1);
    return copy2;
  }
  if (!isPlainObject(value)) return value;
  const copy = {};
  const source = value;
  for (const key of Object.keys(source)) {
    if (key === "__proto__") {
      Object.defineProperty(copy, key, { value: copyAt(source[key], depth + 1), enumerable: true, writable: true, configurable: true });
    } else {
      copy[key] = copyAt(source[key], depth + 1);
    }
  }
  return copy;
}
function copyJsonValue(value) {
  return copyAt(value, 0);
}
var MAX_SCHEMA_DEPTH = 32;
function resolveLocalRef(ref, root) {
  if (!ref.startsWith("#")) return void 0;
  let node = root;
  let pointer;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return void 0;
  }
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return void 0;
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) return void 0;
    node = node[segment];
  }
  return node;
}
function allowsNull(schema, root, depth) {
  if (typeof schema === "boolean") return schema;
  if (schema === null || typeof schema !== "object" || depth > MAX_SCHEMA_DEPTH) return true;
  const node = schema;
  if (typeof node.$ref === "string") {
    const target = resolveLocalRef(node.$ref, root);
    return target === void 0 ? true : allowsNull(target, root, depth + 1);
  }
  if ("type" in node) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (!types.includes("null")) return false;
  }
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if ("const" in node && node.const !== null) return false;
  if (Array.isArray(node.allOf) && node.allOf.some((part) => !allowsNull(part, root, depth + 1))) return false;
  if (Array.isArray(node.anyOf) && !node.anyOf.some((part) => allowsNull(part, root, depth + 1))) return false;
  if (Array.isArray(node.oneOf) && !node.oneOf.some((part) => allowsNull(part, root, depth + 1))) return false;
  return true;
}
function planFor(schema, root, ancestors) {
  let node = schema;
  for (let hops = 0; node !== null && typeof node === "object" && typeof node.$ref === "string"; hops++) {
    if (hops > MAX_SCHEMA_DEPTH) return void 0;
    node = resolveLocalRef(node.$ref, root);
  }
  if (node === null || typeof node !== "object" || ancestors.has(node) || ancestors.size > MAX_SCHEMA_DEPTH) return void 0;
  const properties = node.properties;
  if (properties === null || typeof properties !== "object") return void 0;
  const required = node.required;
  const requiredNames = Array.isArray(required) ? required : [];
  ancestors.add(node);
  const optional = [];
  const nested = [];
  for (const key of Object.keys(properties)) {
    const propertySchema = properties[key];
    if (!requiredNames.includes(key) && !allowsNull(propertySchema, root, 0)) optional.push(key);
    const child = planFor(propertySchema, root, ancestors);
    if (child !== void 0) nested.push([key, child]);
  }
  ancestors.delete(node);
  if (optional.length === 0 && nested.length === 0) return void 0;
  return { optional, nested };
}
function buildNullPlan(schema) {
  return planFor(schema, schema, /* @__PURE__ */ new Set());
}
var hasOwn = Object.prototype.hasOwnProperty;
function stripOptionalNulls(data, plan) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return;
  const record = data;
  for (const key of plan.optional) {
    if (hasOwn.call(record, key) && record[key] === null) delete record[key];
  }
  for (const [key, child] of plan.nested) {
    if (hasOwn.call(record, key)) stripOptionalNulls(record[key], child);
  }
}
var SchemaValidator = class {
  /** The Ajv validate function (coerces and fills defaults in place); absent when `schemaError` is set. */
  validateFunction;
  /** Why the schema did not compile, or `undefined`. */
  schemaError;
  /** What `check` removes before validating, when `stripOptionalNulls` was asked for. */
  nullPlan;
  constructor(source) {
    let validateFunction = source.generated;
    let schemaError;
    if (validateFunction === void 0) {
      if (source.schema === void 0) {
        schemaError = "No schema and no validator given.";
      } else {
        try {
          validateFunction = compileSchema(source.schema);
        } catch (error) {
          schemaError = describeThrown(error, 500);
        }
      }
    }
    this.validateFunction = validateFunction;
    this.schemaError = schemaError;
    this.nullPlan = source.stripOptionalNulls && source.schema !== void 0 ? buildNullPlan(source.schema) : void 0;
  }
  /**
   * Validates `data` **in place** (removing optional `null`s, coercing, filling defaults) and
   * returns the problems, or `undefined` when valid. Pass a copy you own (`copyJsonValue`).
   */
  check(data) {
    const validateFunction = this.validateFunction;
    if (validateFunction === void 0) {
      throw new ToolsmithError("SCHEMA_INVALID", this.schemaError ?? "Schema does not compile.");
    }
    if (this.nullPlan !== void 0) stripOptionalNulls(data, this.nullPlan);
    return validateFunction(data) ? void 0 : toValidationIssues(validateFunction.errors);
  }
  /** Validates a copy of `value`; the caller's value is never changed. */
  validate(value) {
    const copy = copyJsonValue(value);
    const errors = this.check(copy);
    return errors === void 0 ? { valid: true, value: copy } : { valid: false, value: copy, errors };
  }
};

// src/registry.ts
var MAX_COMPARED_LENGTH = 64;
function editDistance(a, b) {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  if (left === right) return 0;
  let previous = new Array(right.length + 1);
  let current = new Array(right.length + 1);
  for (let j = 0; j <= right.length; j++) previous[j] = j;
  for (let i = 1; i <= left.length; i++) {
    current[0] = i;
    for (let j = 1; j <= right.length; j++) {
      const substitution = previous[j - 1] + (left.charCodeAt(i - 1) === right.charCodeAt(j - 1) ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[right.length];
}
var ToolRegistry = class {
  #entries = /* @__PURE__ */ new Map();
  /** How many entries are registered. */
  get size() {
    return this.#entries.size;
  }
  /** The entry registered under exactly `name`. */
  get(name) {
    return this.#entries.get(name);
  }
  /** Whether an entry is registered under exactly `name`. */
  has(name) {
    return this.#entries.has(name);
  }
  /** Adds `entry`; a taken name throws `ALREADY_REGISTERED` unless `replace` is set. Returns the replaced entry. */
  add(entry, options = {}) {
    if (!options.replace) this.assertAvailable(entry.name);
    const previous = this.#entries.get(entry.name);
    this.#entries.set(entry.name, entry);
    return previous;
  }
  /** Throws `ALREADY_REGISTERED` when `name` is taken. */
  assertAvailable(name) {
    if (this.#entries.has(name)) {
      throw new ToolsmithError(
        "ALREADY_REGISTERED",
        `A tool named '${truncateText(name)}' is already registered. Unregister it first or register with { replace: true }.`,
        { details: { name } }
      );
    }
  }
  /** Removes and returns the entry under exactly `name`. */
  delete(name) {
    const entry = this.#entries.get(name);
    if (entry !== void 0) this.#entries.delete(name);
    return entry;
  }
  /** Removes every entry. */
  clear() {
    this.#entries.clear();
  }
  /** Registered names, in registration order. */
  names() {
    return [...this.#entries.keys()];
  }
  /** Registered entries, in registration order. */
  values() {
    return [...this.#entries.values()];
  }
  /** Up to `limit` registered names closest to `name` by edit distance (ties by plain string order). */
  nearestNames(name, limit = 3) {
    const probe = name.slice(0, MAX_COMPARED_LENGTH);
    const scored = [];
    for (const candidate of this.#entries.keys()) {
      scored.push({ name: candidate, distance: editDistance(probe, candidate.slice(0, MAX_COMPARED_LENGTH)) });
    }
    scored.sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return scored.slice(0, limit).map((entry) => entry.name);
  }
  /** The `TOOL_NOT_FOUND` message for `name`: what was asked and the nearest registered names. */
  notFoundMessage(name) {
    const shown = truncateText(JSON.stringify(name).slice(1, -1), 100);
    if (this.#entries.size === 0) return `Tool '${shown}' not found. No tools are registered.`;
    return `Tool '${shown}' not found. Nearest registered: ${this.nearestNames(name).join(", ")}. Names match exactly (case and spaces count).`;
  }
};

// src/executor.ts
import { randomUUID } from "node:crypto";
var ToolCallFailure = class {
  constructor(code, message, details, error) {
    this.code = code;
    this.message = message;
    this.details = details;
    this.error = error;
  }
  code;
  message;
  details;
  error;
};
function assertTool(tool) {
  const name = tool?.name;
  if (typeof name !== "string" || name === "" || name.trim() !== name) {
    throw new ToolsmithError("INVALID_TOOL", "A tool needs a non-empty 'name' without surrounding spaces.", { details: { name } });
  }
  if (typeof tool.id !== "string" || tool.id === "") {
    throw new ToolsmithError("INVALID_TOOL", `Tool '${truncateText(name)}' needs a non-empty 'id'.`);
  }
  if (typeof tool.execute !== "function") {
    throw new ToolsmithError("INVALID_TOOL", `Tool '${truncateText(name)}' needs an 'execute' function.`);
  }
  if (tool.inputSchema === null || typeof tool.inputSchema !== "object") {
    throw new ToolsmithError("INVALID_TOOL", `Tool '${truncateText(name)}' needs an 'inputSchema' object.`);
  }
}
function prepareTool(tool) {
  assertTool(tool);
  const validators = tool.validators;
  const hasOutput = tool.outputSchema !== void 0 || validators?.output !== void 0;
  return {
    name: tool.name,
    tool,
    input: new SchemaValidator({
      schema: tool.inputSchema,
      generated: validators?.input,
      stripOptionalNulls: true
    }),
    output: hasOutput ? new SchemaValidator({ schema: tool.outputSchema, generated: validators?.output }) : void 0,
    requiredCapabilities: Array.isArray(tool.requiredCapabilities) ? [...tool.requiredCapabilities] : [],
    inFlight: 0,
    onIdle: void 0
  };
}
function waitForIdle(entry) {
  if (entry.inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const previous = entry.onIdle;
    entry.onIdle = () => {
      entry.onIdle = void 0;
      previous?.();
      resolve();
    };
  });
}
function releaseEntry(entry) {
  if (--entry.inFlight === 0 && entry.onIdle !== void 0) entry.onIdle();
}
function describeKind(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
function readArguments(raw, toolName) {
  let value;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return new ToolCallFailure(
        "INVALID_REQUEST",
        `Arguments for tool '${truncateText(toolName)}' are not valid JSON (${describeThrown(error, 200)}). Send a JSON object.`
      );
    }
  } else {
    value = raw;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return new ToolCallFailure(
      "INVALID_REQUEST",
      `Arguments for tool '${truncateText(toolName)}' must be a JSON object or a JSON string of one; got ${describeKind(value)}.`
    );
  }
  if (typeof raw === "string") return value;
  try {
    return copyJsonValue(value);
  } catch (error) {
    const message = isToolsmithError(error) ? error.message : describeThrown(error);
    return new ToolCallFailure("INVALID_REQUEST", `Arguments for tool '${truncateText(toolName)}' are not JSON data: ${message}`);
  }
}
function missingCapabilities(entry, capabilities) {
  const required = entry.requiredCapabilities;
  if (required.length === 0) return void 0;
  let missing;
  for (const capability of required) {
    if (capabilities === void 0 || !capabilities.includes(capability)) (missing ??= []).push(capability);
  }
  return missing;
}
function issuesFromValidateArgs(errors) {
  if (!Array.isArray(errors) || errors.length === 0) {
    return [{ path: "", message: "(root) was rejected by the tool", keyword: "validateArgs", params: {} }];
  }
  return errors.slice(0, 100).map((error) => {
    if (error !== null && typeof error === "object") {
      const record = error;
      const path = typeof record.path === "string" ? record.path : typeof record.instancePath === "string" ? record.instancePath : "";
      const text = typeof record.message === "string" ? truncateText(record.message, 1e3) : "is invalid";
      return {
        path,
        message: text.startsWith(path) && path !== "" ? text : `${path === "" ? "(root)" : truncateText(path)} ${text}`,
        keyword: typeof record.keyword === "string" ? record.keyword : "validateArgs",
        params: record.params !== null && typeof record.params === "object" ? record.params : {}
      };
    }
    return { path: "", message: `(root) ${truncateText(String(error), 1e3)}`, keyword: "validateArgs", params: {} };
  });
}
function checkArguments(entry, args) {
  const input = entry.input;
  if (input.validateFunction === void 0) {
    return new ToolCallFailure("SCHEMA_INVALID", `Tool '${entry.name}' cannot be called: its input schema does not compile (${input.schemaError}).`, {
      schemaError: input.schemaError
    });
  }
  const errors = input.check(args);
  if (errors !== void 0) return invalidArguments(entry.name, errors);
  const validateArgs = entry.tool.validateArgs;
  if (validateArgs !== void 0) {
    let verdict;
    try {
      verdict = validateArgs.call(entry.tool, args);
    } catch (error) {
      return new ToolCallFailure("TOOL_ERROR", `Tool '${entry.name}' threw while validating its arguments: ${describeThrown(error)}`, void 0, error);
    }
    if (!verdict?.isValid) return invalidArguments(entry.name, issuesFromValidateArgs(verdict?.errors));
  }
  return void 0;
}
function invalidArguments(toolName, errors) {
  const shown = errors.slice(0, 3).map((error) => error.message).join("; ");
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : "";
  return new ToolCallFailure("INVALID_ARGUMENTS", `Invalid arguments for tool '${toolName}': ${shown}${more}. Fix them and call again.`, { errors });
}
function checkOutput(entry, output) {
  const validator = entry.output;
  if (validator === void 0) return { output };
  if (validator.validateFunction === void 0) {
    return new ToolCallFailure("OUTPUT_INVALID", `Tool '${entry.name}' has an output schema that does not compile (${validator.schemaError}).`, {
      schemaError: validator.schemaError
    });
  }
  let copy;
  try {
    copy = copyJsonValue(output);
  } catch (error) {
    return new ToolCallFailure("OUTPUT_INVALID", `Tool '${entry.name}' produced output that is not JSON data: ${describeThrown(error)}`);
  }
  const errors = validator.check(copy);
  if (errors === void 0) return { output: copy };
  const shown = errors.slice(0, 3).map((error) => error.message).join("; ");
  return new ToolCallFailure("OUTPUT_INVALID", `Tool '${entry.name}' produced output that fails its output schema: ${shown}.`, { errors });
}
function withoutStack(details) {
  if (details === null || typeof details !== "object" || !("stack" in details)) return details ?? void 0;
  const { stack: _stack, ...rest } = details;
  return rest;
}
function failed(failure, output) {
  const result = {
    success: false,
    error: failure.message,
    details: { code: failure.code, ...failure.details }
  };
  if (output !== void 0) result.output = output;
  return result;
}
var ToolExecutor = class {
  /** Registered tools by exact name. */
  registry = new ToolRegistry();
  /** Registers `tool` (validators prepared now); returns the registration it replaced, if any. */
  registerTool(tool, options = {}) {
    return this.registry.add(prepareTool(tool), options);
  }
  /** Removes the tool registered under exactly `name`, without shutting it down; returns its registration. */
  removeTool(name) {
    return this.registry.delete(name);
  }
  /** The tool registered under exactly `name`. */
  getTool(name) {
    return this.registry.get(name)?.tool;
  }
  /** The prepared registration under exactly `name`. */
  getRegisteredTool(name) {
    return this.registry.get(name);
  }
  /** Every registered tool, in registration order. */
  listTools() {
    return this.registry.values().map((entry) => entry.tool);
  }
  /** Executes one call and answers the tool's result (a failure carries `details.code`); never rejects. */
  async executeTool(request) {
    const call = request?.toolCallRequest;
    const name = call?.name;
    if (typeof name !== "string" || name === "") {
      return failed(new ToolCallFailure("INVALID_REQUEST", "The tool call has no 'name'."));
    }
    const entry = this.registry.get(name);
    if (entry === void 0) return failed(new ToolCallFailure("TOOL_NOT_FOUND", this.registry.notFoundMessage(name)));
    const missing = missingCapabilities(entry, request.personaCapabilities);
    if (missing !== void 0) {
      return failed(
        new ToolCallFailure("PERMISSION_DENIED", `Tool '${entry.name}' needs capabilities the caller lacks: ${missing.join(", ")}.`, { missing })
      );
    }
    const args = readArguments(call.arguments, entry.name);
    if (args instanceof ToolCallFailure) return failed(args);
    const invalid = checkArguments(entry, args);
    if (invalid !== void 0) return failed(invalid);
    const context = {
      gmiId: request.gmiId,
      personaId: request.personaId,
      userContext: request.userContext,
      correlationId: request.correlationId || randomUUID(),
      personaCapabilities: request.personaCapabilities
    };
    if (request.sessionData !== void 0) context.sessionData = request.sessionData;
    entry.inFlight++;
    try {
      const result = await entry.tool.execute(args, context);
      if (result === null || typeof result !== "object") {
        return failed(new ToolCallFailure("TOOL_ERROR", `Tool '${entry.name}' returned ${describeKind(result)} instead of a result object.`));
      }
      if (!result.success) return { ...result, details: { code: "TOOL_FAILED", ...withoutStack(result.details) } };
      const checked = checkOutput(entry, result.output);
      if (checked instanceof ToolCallFailure) return failed(checked, result.output);
      return checked.output === void 0 ? result : { ...result, output: checked.output };
    } catch (error) {
      return failed(new ToolCallFailure("TOOL_ERROR", `Tool '${entry.name}' threw: ${describeThrown(error)}`));
    } finally {
      releaseEntry(entry);
    }
  }
};

// src/orchestrator.ts
import { randomUUID as randomUUID2 } from "node:crypto";

// src/composed.ts
var ATTACH_ORCHESTRATOR = /* @__PURE__ */ Symbol.for("toolsmith.attachOrchestrator");
var REFERENCE = /^\$(?:input|steps\.(0|[1-9]\d*)\.output)((?:\.[^.]+)*)$/;
function parseReference(value) {
  if (value.charCodeAt(0) !== 36) return void 0;
  const match = REFERENCE.exec(value);
  if (match === null) return void 0;
  return { step: match[1] === void 0 ? -1 : Number(match[1]), path: match[2] === "" ? [] : match[2].slice(1).split(".") };
}
var hasOwn2 = Object.prototype.hasOwnProperty;
function readPath(root, path) {
  let node = root;
  for (const segment of path) {
    if (node === null || typeof node !== "object" || !hasOwn2.call(node, segment)) return void 0;
    node = node[segment];
  }
  return node;
}
function resolveTemplate(template, scope) {
  if (typeof template === "string") {
    const reference = parseReference(template);
    if (reference === void 0) return template;
    const root = reference.step === -1 ? scope.input : scope.steps[reference.step]?.output;
    return readPath(root, reference.path);
  }
  if (template === null || typeof template !== "object") return template;
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, scope));
  const resolved = {};
  for (const key of Object.keys(template)) {
    const value = resolveTemplate(template[key], scope);
    if (value === void 0) continue;
    if (key === "__proto__") Object.defineProperty(resolved, key, { value, enumerable: true, writable: true, configurable: true });
    else resolved[key] = value;
  }
  return resolved;
}
function collectReferences(template, found = []) {
  if (typeof template === "string") {
    const reference = parseReference(template);
    if (reference !== void 0) found.push(reference);
  } else if (template !== null && typeof template === "object") {
    for (const value of Object.values(template)) collectReferences(value, found);
  }
  return found;
}
function checkDefinition(definition) {
  const name = typeof definition?.name === "string" ? definition.name : "";
  if (name === "") throw new ToolsmithError("INVALID_TOOL", "A composed tool needs a non-empty 'name'.");
  const steps = definition.steps;
  if (!Array.isArray(steps) || steps.length === 0) {
    throw new ToolsmithError("INVALID_TOOL", `Composed tool '${truncateText(name)}' needs at least one step.`);
  }
  steps.forEach((step, index) => {
    if (typeof step?.tool !== "string" || step.tool === "") {
      throw new ToolsmithError("INVALID_TOOL", `Step ${index} of composed tool '${truncateText(name)}' needs a 'tool' name.`);
    }
    for (const reference of collectReferences(step.arguments)) {
      if (reference.step >= index) {
        throw new ToolsmithError(
          "INVALID_TOOL",
          `Step ${index} of composed tool '${truncateText(name)}' refers to $steps.${reference.step}, which has not run yet.`
        );
      }
    }
  });
  for (const reference of collectReferences(definition.output)) {
    if (reference.step >= steps.length) {
      throw new ToolsmithError("INVALID_TOOL", `The output of composed tool '${truncateText(name)}' refers to a step that does not exist ($steps.${reference.step}).`);
    }
  }
}
var ComposedTool = class {
  id;
  name;
  displayName;
  description;
  inputSchema;
  outputSchema;
  requiredCapabilities;
  category;
  version;
  hasSideEffects;
  timeoutMs;
  validators;
  steps;
  output;
  #orchestrator;
  constructor(definition, options = {}) {
    checkDefinition(definition);
    this.name = definition.name;
    this.id = definition.id ?? `composed:${definition.name}${definition.version === void 0 ? "" : `@${definition.version}`}`;
    this.displayName = definition.displayName ?? definition.name;
    this.description = definition.description;
    this.inputSchema = definition.inputSchema;
    if (definition.outputSchema !== void 0) this.outputSchema = definition.outputSchema;
    this.requiredCapabilities = [...definition.requiredCapabilities ?? []];
    if (definition.category !== void 0) this.category = definition.category;
    if (definition.version !== void 0) this.version = definition.version;
    this.hasSideEffects = definition.hasSideEffects ?? false;
    if (definition.timeoutMs !== void 0) this.timeoutMs = definition.timeoutMs;
    if (definition.validators !== void 0) this.validators = definition.validators;
    this.steps = Object.freeze(definition.steps.map((step) => Object.freeze({ ...step })));
    this.output = definition.output;
    this.#orchestrator = options.orchestrator;
  }
  /** Sets the orchestrator the steps run through; a composed tool belongs to one orchestrator. */
  attach(orchestrator) {
    if (this.#orchestrator !== void 0 && this.#orchestrator !== orchestrator) {
      throw new ToolsmithError("INVALID_TOOL", `Composed tool '${truncateText(this.name)}' is already attached to another orchestrator.`);
    }
    this.#orchestrator = orchestrator;
  }
  /** Called by `ToolOrchestrator.registerTool`. */
  [ATTACH_ORCHESTRATOR](orchestrator) {
    this.attach(orchestrator);
  }
  /** Runs the steps in order and answers `output` (default: the last step's output). */
  async execute(args, context) {
    const orchestrator = this.#orchestrator;
    if (orchestrator === void 0) {
      return { success: false, error: `Composed tool '${this.name}' is not attached to an orchestrator; register it with a ToolOrchestrator.` };
    }
    const outputs = [];
    const scope = { input: args, steps: outputs };
    for (let index = 0; index < this.steps.length; index++) {
      const step = this.steps[index];
      const result = await orchestrator.processToolCall({
        toolCallRequest: {
          id: `${context.correlationId ?? this.name}:step-${index}`,
          name: step.tool,
          arguments: resolveTemplate(step.arguments ?? {}, scope)
        },
        gmiId: context.gmiId,
        personaId: context.personaId,
        personaCapabilities: context.personaCapabilities,
        userContext: context.userContext,
        correlationId: context.correlationId,
        sessionData: context.sessionData,
        signal: context.signal,
        callerTurn: context.callerTurn,
        timeoutMs: step.timeoutMs
      });
      if (result.isError) {
        const code = result.errorDetails?.code ?? "TOOL_FAILED";
        const message = result.errorDetails?.message ?? "no message";
        return {
          success: false,
          error: `Step ${index} ('${step.tool}') of composed tool '${this.name}' failed with ${code}: ${message}`,
          details: { step: index, code, message }
        };
      }
      outputs.push({ output: result.output });
    }
    const output = this.output === void 0 ? outputs[outputs.length - 1].output : resolveTemplate(this.output, scope);
    return { success: true, output };
  }
};

// src/orchestrator.ts
var MAX_TIMER_MS = 2147483647;
var DEFAULT_SHUTDOWN_TIMEOUT_MS = 5e3;
var PendingCall = class {
  constructor(stop) {
    this.stop = stop;
  }
  stop;
  done = false;
  resolve = noop;
  toolCallId = "";
  toolName = "unknown";
  correlationId = "";
  startedAt = 0;
  entry = void 0;
  /** The caller's signal this call listens to. */
  signal = void 0;
  /** Only when a timeout applies: the signal the tool gets (caller's stop or the deadline). */
  controller = void 0;
  timer = void 0;
  timeoutMs = 0;
  queued = false;
  holdsSlot = false;
  grant = void 0;
  /** Neighbours in the orchestrator's list of calls in flight (a list, not a Set: no hashing per call). */
  previous = void 0;
  next = void 0;
  /** The caller's signal fired (`addEventListener` takes this object as the listener: no closure per call). */
  handleEvent() {
    this.stop(this, "caller");
  }
};
function noop() {
}
function onCallTimeout(call) {
  call.stop(call, "timeout");
}
function callHook(hook, event) {
  try {
    const returned = hook(event);
    if (returned !== null && typeof returned === "object" && typeof returned.then === "function") {
      returned.then(void 0, noop);
    }
  } catch {
  }
}
function isThenable(value) {
  return value !== null && typeof value === "object" && typeof value.then === "function";
}
function isApproved(answer) {
  return answer === true || answer !== null && typeof answer === "object" && answer.approved === true;
}
var ToolOrchestrator = class {
  #executor = new ToolExecutor();
  #approvalGate;
  #requireApproval;
  #defaultTimeoutMs;
  #maxConcurrency;
  #maxQueue;
  #disabled;
  #onCallStart;
  #onCallEnd;
  #shutdownTimeoutMs;
  /** Calls not yet resolved, as a doubly linked list (shutdown waits for them, then aborts them). */
  #firstCall = void 0;
  #callCount = 0;
  #correlationPrefix = randomUUID2();
  #correlationSequence = 0;
  #running = 0;
  #queue = [];
  #queueHead = 0;
  #queued = 0;
  #closing = false;
  #shutdown;
  #onAllSettled;
  #shutDownTools = /* @__PURE__ */ new WeakSet();
  #retiring = /* @__PURE__ */ new Set();
  #shutdownErrors = [];
  #stop = (call, reason) => this.#stopCall(call, reason);
  constructor(options = {}) {
    this.#approvalGate = options.approvalGate;
    this.#requireApproval = options.requireApproval ?? "side-effects";
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
    this.#maxConcurrency = options.maxConcurrency;
    this.#maxQueue = options.maxQueue ?? Number.POSITIVE_INFINITY;
    this.#disabled = new Set(options.disabledTools ?? []);
    this.#onCallStart = options.hooks?.onCallStart?.bind(options.hooks);
    this.#onCallEnd = options.hooks?.onCallEnd?.bind(options.hooks);
    this.#shutdownTimeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    if (this.#maxConcurrency !== void 0 && !(Number.isInteger(this.#maxConcurrency) && this.#maxConcurrency > 0)) {
      throw new ToolsmithError("INVALID_TOOL", `maxConcurrency must be a positive integer; got ${String(this.#maxConcurrency)}.`);
    }
    for (const tool of options.tools ?? []) this.registerTool(tool);
  }
  /**
   * Registers `tool`. Throws `ALREADY_REGISTERED` for a taken name unless `replace` is set,
   * `INVALID_TOOL` for a malformed tool, `SHUTTING_DOWN` after `shutdown()`. The tool is callable
   * as soon as this returns; the promise (which never rejects) resolves once a replaced tool has
   * finished its in-flight calls and been shut down.
   */
  registerTool(tool, options = {}) {
    if (this.#closing) throw new ToolsmithError("SHUTTING_DOWN", "The orchestrator is shutting down; no tool can be registered.");
    const entry = prepareTool(tool);
    const attach = tool[ATTACH_ORCHESTRATOR];
    if (!options.replace) this.#executor.registry.assertAvailable(entry.name);
    if (typeof attach === "function") attach.call(tool, this);
    const previous = this.#executor.registry.add(entry, options);
    if (previous === void 0 || previous.tool === tool) return Promise.resolve();
    return this.#retire(previous);
  }
  /** Removes the tool under exactly `name`, waits for its in-flight calls, then shuts it down. False when not registered. */
  async unregisterTool(name) {
    const entry = this.#executor.removeTool(name);
    if (entry === void 0) return false;
    await this.#retire(entry);
    return true;
  }
  /** The tool registered under exactly `name`. */
  getTool(name) {
    return this.#executor.getTool(name);
  }
  /**
   * What an LLM may be offered: name, description, input and output schema of every enabled tool,
   * and, given a context, only those whose required capabilities its `personaCapabilities` has.
   */
  listTools(context) {
    const definitions = [];
    for (const entry of this.#executor.registry.values()) {
      const tool = entry.tool;
      if (this.#isDisabled(tool)) continue;
      if (context !== void 0 && missingCapabilities(entry, context.personaCapabilities) !== void 0) continue;
      const definition = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
      if (tool.outputSchema !== void 0) definition.outputSchema = tool.outputSchema;
      definitions.push(definition);
    }
    return definitions;
  }
  /**
   * Runs one tool call and resolves exactly once with its result; never rejects. The order, the
   * same for every call (the first failing step decides the code):
   *
   * 0. `SHUTTING_DOWN` after `shutdown()` was called;
   * 1. `INVALID_REQUEST`: no name, or arguments neither an object nor a JSON string of one;
   * 2. `TOOL_NOT_FOUND` (exact names; the message lists the nearest);
   * 3. `ABORTED` when the signal already fired: nothing starts;
   * 4. `REFUSED` when `tool.refusal` answers a result (before anyone is asked to approve);
   * 5. `PERMISSION_DENIED` (missing capabilities in `details.missing`), `TOOL_DISABLED`;
   * 6. `BUDGET_EXCEEDED` once `callerTurn.budget.remaining` is spent (else it is decremented);
   * 7. `SCHEMA_INVALID`, `INVALID_ARGUMENTS` (input coerced and defaulted on a copy, then `validateArgs`);
   * 8. approval: `APPROVAL_UNAVAILABLE`, `APPROVAL_REJECTED`, `APPROVAL_FAILED`, `ABORTED` while pending;
   * 9. execute: `QUEUE_FULL`, `TIMEOUT` (at the deadline, even if the tool ignores its signal; the
   *    deadline covers the wait for a slot), `ABORTED`, `TOOL_FAILED`, `TOOL_ERROR`, `STEP_FAILED`;
   * 10. `OUTPUT_INVALID`; otherwise the coerced output.
   */
  processToolCall(details) {
    const call = new PendingCall(this.#stop);
    const result = new Promise((resolve) => {
      call.resolve = resolve;
    });
    void this.#runCall(details, call);
    return result;
  }
  /**
   * Stops accepting calls (every later call ends `SHUTTING_DOWN`), waits for calls in flight up to
   * `timeoutMs` (default: the `shutdownTimeoutMs` option) and then aborts them, and calls every
   * tool's `shutdown()` exactly once. Tool shutdown errors are collected in the report, never
   * thrown. Idempotent: later calls return the same promise.
   */
  shutdown(options = {}) {
    return this.#shutdown ??= this.#shutdownOnce(options.timeoutMs ?? this.#shutdownTimeoutMs);
  }
  /** The call pipeline, in the order documented on `processToolCall`; it finishes `call` on every path. */
  async #runCall(details, call) {
    try {
      const request = details?.toolCallRequest;
      const name = request?.name;
      if (typeof request?.id === "string") call.toolCallId = request.id;
      if (typeof name === "string" && name !== "") call.toolName = name.length > 256 ? truncateText(name, 256) : name;
      call.correlationId = details?.correlationId || `${this.#correlationPrefix}-${++this.#correlationSequence}`;
      this.#track(call);
      if (this.#onCallEnd !== void 0) call.startedAt = performance.now();
      if (this.#onCallStart !== void 0) {
        callHook(this.#onCallStart, { toolName: call.toolName, toolCallId: call.toolCallId, correlationId: call.correlationId });
      }
      if (this.#closing) {
        return this.#fail(call, "SHUTTING_DOWN", "The orchestrator is shutting down and accepts no more calls.");
      }
      if (typeof name !== "string" || name === "") {
        return this.#fail(call, "INVALID_REQUEST", "The tool call has no 'name'. Send { id, name, arguments }.");
      }
      const args = readArguments(request.arguments, call.toolName);
      if (args instanceof ToolCallFailure) return this.#failWith(call, args);
      const entry = this.#executor.getRegisteredTool(name);
      if (entry === void 0) return this.#fail(call, "TOOL_NOT_FOUND", this.#executor.registry.notFoundMessage(name));
      entry.inFlight++;
      call.entry = entry;
      const tool = entry.tool;
      const signal = details.signal;
      if (signal !== void 0) {
        if (signal.aborted) return this.#fail(call, "ABORTED", `The call to tool '${tool.name}' was aborted before it started.`);
        call.signal = signal;
        signal.addEventListener("abort", call);
      }
      const context = {
        gmiId: details.gmiId,
        personaId: details.personaId,
        userContext: details.userContext,
        correlationId: call.correlationId,
        sessionData: details.sessionData,
        personaCapabilities: details.personaCapabilities,
        signal,
        callerTurn: details.callerTurn
      };
      if (tool.refusal !== void 0) {
        let refusal;
        try {
          refusal = tool.refusal(args, context);
          if (isThenable(refusal)) refusal = await refusal;
        } catch (error) {
          return this.#fail(call, "TOOL_ERROR", `Tool '${tool.name}' threw in its refusal check: ${describeThrown(error)}`, void 0, error);
        }
        if (call.done) return;
        if (refusal !== void 0 && refusal !== null) {
          const reason = typeof refusal.error === "string" && refusal.error !== "" ? truncateText(refusal.error, 1e3) : "no reason given";
          return this.#fail(call, "REFUSED", `Tool '${tool.name}' refused the call: ${reason}`, withoutStack(refusal.details));
        }
      }
      const missing = missingCapabilities(entry, details.personaCapabilities);
      if (missing !== void 0) {
        return this.#fail(call, "PERMISSION_DENIED", `Tool '${tool.name}' needs capabilities the caller lacks: ${missing.join(", ")}.`, { missing });
      }
      if (this.#isDisabled(tool)) return this.#fail(call, "TOOL_DISABLED", `Tool '${tool.name}' is disabled by configuration.`);
      const budget = details.callerTurn?.budget;
      if (budget !== void 0) {
        if (!(budget.remaining > 0)) {
          return this.#fail(call, "BUDGET_EXCEEDED", `The tool-call budget of this turn is spent; tool '${tool.name}' was not called.`);
        }
        budget.remaining -= 1;
      }
      const invalid = checkArguments(entry, args);
      if (invalid !== void 0) return this.#failWith(call, invalid);
      const policy = this.#requireApproval;
      if (policy === "always" || policy === "side-effects" && tool.hasSideEffects === true) {
        const gate = details.callerTurn?.approvalGate ?? this.#approvalGate;
        if (gate === void 0) {
          if (policy === "always") {
            return this.#fail(call, "APPROVAL_UNAVAILABLE", `Tool '${tool.name}' needs approval but no approval gate is configured.`);
          }
        } else {
          let answer;
          try {
            answer = await gate({ tool, args, context });
          } catch (error) {
            return this.#fail(call, "APPROVAL_FAILED", `The approval gate failed for tool '${tool.name}': ${describeThrown(error)}`, void 0, error);
          }
          if (call.done) return;
          if (!isApproved(answer)) {
            const reason = answer?.reason;
            return this.#fail(
              call,
              "APPROVAL_REJECTED",
              `The call to tool '${tool.name}' was not approved${typeof reason === "string" ? `: ${truncateText(reason, 1e3)}` : "."}`,
              typeof reason === "string" ? { reason } : void 0
            );
          }
        }
      }
      const timeoutMs = details.timeoutMs ?? tool.timeoutMs ?? this.#defaultTimeoutMs;
      if (timeoutMs !== void 0 && timeoutMs > 0 && timeoutMs !== Number.POSITIVE_INFINITY) {
        call.timeoutMs = timeoutMs;
        call.controller = new AbortController();
        context.signal = call.controller.signal;
        call.timer = setTimeout(onCallTimeout, Math.min(timeoutMs, MAX_TIMER_MS), call);
      }
      if (this.#maxConcurrency !== void 0) {
        if (this.#running < this.#maxConcurrency) {
          this.#running++;
          call.holdsSlot = true;
        } else if (this.#queued >= this.#maxQueue) {
          return this.#fail(call, "QUEUE_FULL", `Too many calls are waiting (${this.#queued}); tool '${tool.name}' was not called. Retry later.`);
        } else {
          await this.#waitForSlot(call);
        }
      }
      if (call.done) return;
      let result;
      try {
        result = await tool.execute(args, context);
      } catch (error) {
        return this.#fail(call, "TOOL_ERROR", `Tool '${tool.name}' threw: ${describeThrown(error)}`, void 0, error);
      }
      if (call.done) return;
      if (result === null || typeof result !== "object") {
        return this.#fail(call, "TOOL_ERROR", `Tool '${tool.name}' returned ${result === null ? "null" : typeof result} instead of a result object.`);
      }
      if (!result.success) {
        const error = typeof result.error === "string" && result.error !== "" ? truncateText(result.error, 1e3) : "no error message";
        if (tool instanceof ComposedTool && typeof result.details?.step === "number") {
          return this.#fail(call, "STEP_FAILED", error, result.details);
        }
        return this.#fail(call, "TOOL_FAILED", `Tool '${tool.name}' failed: ${error}`, withoutStack(result.details));
      }
      const checked = checkOutput(entry, result.output);
      if (checked instanceof ToolCallFailure) return this.#failWith(call, checked);
      this.#finish(call, { toolCallId: call.toolCallId, toolName: call.toolName, output: checked.output ?? null, isError: false }, void 0, void 0);
    } catch (error) {
      this.#fail(call, "TOOL_ERROR", `Internal error while calling tool '${call.toolName}': ${describeThrown(error)}`, void 0, error);
    }
  }
  #isDisabled(tool) {
    return this.#disabled.size !== 0 && (this.#disabled.has(tool.name) || this.#disabled.has(tool.id));
  }
  #fail(call, code, message, details, error) {
    if (call.done) return;
    const errorDetails = details === void 0 ? { code, message } : { code, message, details };
    this.#finish(call, { toolCallId: call.toolCallId, toolName: call.toolName, output: null, isError: true, errorDetails }, code, error);
  }
  #failWith(call, failure) {
    this.#fail(call, failure.code, failure.message, failure.details, failure.error);
  }
  /** Resolves `call` once and releases everything it holds (listener, timer, slot, registration). */
  #finish(call, result, code, error) {
    if (call.done) return;
    call.done = true;
    if (call.timer !== void 0) clearTimeout(call.timer);
    if (call.signal !== void 0) call.signal.removeEventListener("abort", call);
    if (call.queued) {
      call.queued = false;
      this.#queued--;
    }
    if (call.holdsSlot) {
      call.holdsSlot = false;
      this.#releaseSlot();
    }
    if (call.entry !== void 0) releaseEntry(call.entry);
    this.#untrack(call);
    if (this.#onAllSettled !== void 0 && this.#callCount === 0) this.#onAllSettled();
    if (this.#onCallEnd !== void 0) {
      const event = {
        toolName: call.toolName,
        toolCallId: call.toolCallId,
        correlationId: call.correlationId,
        durationMs: performance.now() - call.startedAt,
        isError: result.isError
      };
      if (code !== void 0) event.code = code;
      if (error !== void 0) event.error = error;
      callHook(this.#onCallEnd, event);
    }
    call.resolve(result);
  }
  /** Ends a call from outside its pipeline: the caller's stop, its deadline, or shutdown. */
  #stopCall(call, reason) {
    if (call.done) return;
    const name = call.toolName;
    let abortReason;
    if (reason === "timeout") {
      this.#fail(call, "TIMEOUT", `Tool '${name}' did not finish within ${call.timeoutMs} ms; the call was stopped.`, { timeoutMs: call.timeoutMs });
      abortReason = new DOMException(`Tool '${name}' timed out after ${call.timeoutMs} ms.`, "TimeoutError");
    } else if (reason === "caller") {
      this.#fail(call, "ABORTED", `The call to tool '${name}' was aborted by the caller.`);
      abortReason = call.signal?.reason;
    } else {
      this.#fail(call, "ABORTED", `The call to tool '${name}' was aborted because the orchestrator shut down.`, { reason: "shutdown" });
      abortReason = new DOMException("The orchestrator shut down.", "AbortError");
    }
    call.controller?.abort(abortReason);
  }
  #track(call) {
    const first = this.#firstCall;
    if (first !== void 0) {
      first.previous = call;
      call.next = first;
    }
    this.#firstCall = call;
    this.#callCount++;
  }
  #untrack(call) {
    const { previous, next } = call;
    if (previous !== void 0) previous.next = next;
    else if (this.#firstCall === call) this.#firstCall = next;
    else return;
    if (next !== void 0) next.previous = previous;
    call.previous = call.next = void 0;
    this.#callCount--;
  }
  #waitForSlot(call) {
    call.queued = true;
    this.#queued++;
    this.#queue.push(call);
    return new Promise((resolve) => {
      call.grant = resolve;
    });
  }
  /** Hands the slot of a finished call to the next live queued call, or frees it. */
  #releaseSlot() {
    const queue = this.#queue;
    while (this.#queueHead < queue.length) {
      const next = queue[this.#queueHead];
      queue[this.#queueHead++] = void 0;
      if (next === void 0 || next.done || !next.queued) continue;
      next.queued = false;
      this.#queued--;
      next.holdsSlot = true;
      if (this.#queueHead > 1024 && this.#queueHead * 2 > queue.length) {
        this.#queue = queue.slice(this.#queueHead);
        this.#queueHead = 0;
      }
      next.grant?.();
      return;
    }
    this.#queue = [];
    this.#queueHead = 0;
    this.#running--;
  }
  /** Waits for a removed or replaced registration's calls, then shuts its tool down (errors collected). */
  #retire(entry) {
    const retired = waitForIdle(entry).then(() => this.#shutdownTool(entry.tool));
    this.#retiring.add(retired);
    void retired.then(() => this.#retiring.delete(retired));
    return retired;
  }
  async #shutdownTool(tool) {
    if (this.#shutDownTools.has(tool)) return;
    this.#shutDownTools.add(tool);
    if (typeof tool.shutdown !== "function") return;
    try {
      await tool.shutdown();
    } catch (error) {
      this.#shutdownErrors.push({ toolName: tool.name, message: describeThrown(error), error });
    }
  }
  async #shutdownOnce(timeoutMs) {
    this.#closing = true;
    let abortedCalls = 0;
    if (this.#callCount > 0) {
      const settled = new Promise((resolve) => {
        this.#onAllSettled = resolve;
      });
      let timer;
      const deadline = new Promise((resolve) => {
        timer = setTimeout(resolve, Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS), "deadline");
      });
      const outcome = await Promise.race([settled, deadline]);
      clearTimeout(timer);
      if (outcome === "deadline") {
        const pending = [];
        for (let call = this.#firstCall; call !== void 0; call = call.next) pending.push(call);
        for (const call of pending) {
          if (call.done) continue;
          this.#stopCall(call, "shutdown");
          abortedCalls++;
        }
      }
      this.#onAllSettled = void 0;
    }
    await Promise.all([...this.#retiring]);
    const entries = this.#executor.registry.values();
    this.#executor.registry.clear();
    await Promise.all(entries.map((entry) => this.#shutdownTool(entry.tool)));
    return { abortedCalls, errors: [...this.#shutdownErrors] };
  }
};

// ../../tmp/bench/p.mts
var mk = () => ({
  id: "add",
  name: "add",
  displayName: "Add",
  description: "adds",
  inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer", default: 2 } }, required: ["a"], additionalProperties: false },
  outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  async execute(args) {
    return { success: true, output: { sum: args.a + args.b } };
  }
});
var base = { gmiId: "g", personaId: "p", userContext: { userId: "u" }, personaCapabilities: [] };
var o = new ToolOrchestrator({ tools: [mk()] });
async function main() {
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    for (let i = 0; i < 2e5; i++) await o.processToolCall({ ...base, toolCallRequest: { id: "1", name: "add", arguments: { a: 1 } } });
    console.log(((performance.now() - t) * 1e3 / 2e5).toFixed(2));
  }
}
await main();
