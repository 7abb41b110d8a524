/** Bumped when generated output changes shape: part of every tool's content hash and every banner. */
export const GENERATOR_VERSION = '0.1.0';
