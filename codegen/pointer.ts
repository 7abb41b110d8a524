/** JSON pointers for the generator: the runtime's one pointer module (src/schema/json-pointer.ts). */
export {
  decodeFragment,
  decodePercent,
  escapePointerSegment,
  formatPointer,
  parseLocalRef,
  parsePointer,
  resolveLocalRef,
  unescapePointerSegment,
  valueAt,
  type DecodedFragment,
} from '../src/schema/json-pointer.js';
