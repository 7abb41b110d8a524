/** JSON pointers for the generator: the runtime's one pointer module (src/schema/json-pointer.ts). */
export {
  decodeFragment,
  decodePercent,
  escapePointerSegment,
  formatPointer,
  parsePointer,
  resolveLocalRef,
  unescapePointerSegment,
  type DecodedFragment,
} from '../src/schema/json-pointer.js';
