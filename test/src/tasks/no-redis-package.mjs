// Preloaded with `--import` to make `import('redis')` fail as it does where the optional package is not installed.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
  if (specifier === 'redis') {
    const error = new Error("Cannot find package 'redis'");
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}`)}`,
);
