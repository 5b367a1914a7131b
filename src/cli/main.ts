import { printError, runGuarded } from './args';
import { dispatch } from './verbs';

runGuarded(() => dispatch(process.argv.slice(2))).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    printError(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
