/**
 * Locating many JSON paths in one line, in time linear in the line's length.
 *
 * `locateJsonPath` rescans the line from the start for every path, which made a row with tens of
 * thousands of flagged regions quadratic (67 s for 20,000 regions). A locator indexes each
 * container it descends into once — the offsets of all its members or elements — so every further
 * lookup under that container is a map or array access. Containers are indexed lazily, only on
 * the paths actually asked for; each index costs one scan of that container's text.
 */
import { ScanError, Scanner } from './jsonScan';

/** Member offsets of one object or array; `complete` is false when its scan hit a syntax error. */
interface ContainerIndex {
  readonly members: Map<string, number> | number[];
  readonly complete: boolean;
}

export class JsonLocator {
  private readonly scanner: Scanner;
  /** Container start offset → its index. */
  private readonly indexes = new Map<number, ContainerIndex | undefined>();
  private rootStart: number | undefined;

  constructor(private readonly text: string) {
    this.scanner = new Scanner(text);
  }

  /**
   * Same answer as `locateJsonPath(text, path)`: the 0-based offset of the value at `path`, or of
   * the deepest existing ancestor when the path leads to a missing key or index; `undefined` when
   * a syntax error hides the answer.
   */
  locate(path: readonly PropertyKey[]): number | undefined {
    this.rootStart ??= this.scanner.skipWs(0);
    let at = this.rootStart;
    for (const key of path) {
      const c = this.text.charCodeAt(at);
      const isObjectStep = c === 0x7b && typeof key === 'string';
      const isArrayStep = c === 0x5b && typeof key === 'number';
      if (!isObjectStep && !isArrayStep) return at;
      const index = this.indexAt(at, isObjectStep);
      if (index === undefined) return undefined;
      const found = index.members instanceof Map ? index.members.get(key as string) : index.members[key as number];
      if (found === undefined) return index.complete ? at : undefined;
      at = found;
    }
    return at;
  }

  private indexAt(start: number, isObject: boolean): ContainerIndex | undefined {
    if (this.indexes.has(start)) return this.indexes.get(start);
    let index: ContainerIndex | undefined;
    if (isObject) {
      const members = new Map<string, number>();
      const complete = this.collect(() =>
        this.scanner.scanObject(start, 0, (key, valueStart) => {
          // The first of duplicate keys, as locateJsonPath does.
          if (!members.has(key)) members.set(key, valueStart);
          return false;
        }),
      );
      index = complete === undefined ? undefined : { members, complete };
    } else {
      const elements: number[] = [];
      const complete = this.collect(() =>
        this.scanner.scanArray(start, 0, (i, valueStart) => {
          elements[i] = valueStart;
          return false;
        }),
      );
      index = complete === undefined ? undefined : { members: elements, complete };
    }
    this.indexes.set(start, index);
    return index;
  }

  /** Runs a scan: true when it finished, false when it stopped at a syntax error. */
  private collect(scan: () => number): boolean | undefined {
    try {
      scan();
      return true;
    } catch (error) {
      if (error instanceof ScanError) return false;
      return undefined;
    }
  }
}
