/**
 * The request log's lines, written once per turn of the event loop: a server under load answers
 * several requests per turn, and standard output to a pipe or a file is a system call per write.
 * Every line is written, in order, before the next turn; `flush` writes what is pending now (on stop).
 */
export interface LogLines {
  log(line: string): void;
  flush(): void;
}

export function logLines(write: (text: string) => void): LogLines {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    write(`${lines.join('\n')}\n`);
  };
  return {
    log(line) {
      if (pending.length === 0) setImmediate(flush);
      pending.push(line);
    },
    flush,
  };
}
