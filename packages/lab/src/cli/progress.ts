/** A progress bar on stderr: redrawn in place on a terminal, one line per step otherwise. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let last = '';
  return {
    update(done: number, total: number, label: string) {
      const width = 30;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}`;
      if (tty) stream.write(`\r${line.padEnd(last.length)}`);
      else if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    note(message: string) {
      if (tty && last) stream.write('\n');
      stream.write(`${message}\n`);
      last = '';
    },
    end() {
      if (tty && last) stream.write('\n');
      last = '';
    },
  };
}
