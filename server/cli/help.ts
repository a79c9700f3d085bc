/** The help of a command-line command, written from the same table that parses its options. */

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** What the value stands for in the help (`N`, `LIST`); string options only. */
  value?: string;
  help: string;
  required?: true;
}

export interface CommandSpec {
  /** The npm script that runs it, such as `key:create`. */
  script: string;
  /** A few words for the overview of all commands. */
  purpose: string;
  summary: string;
  /** Its one positional argument, if it takes one. */
  argument?: { name: string; help: string };
  options: Record<string, OptionSpec>;
  examples: string[];
}

function flag(name: string, option: OptionSpec): string {
  return option.value ? `--${name} ${option.value}` : `--${name}`;
}

/** Usage, summary, arguments, options and examples, as `--help` prints them. */
export function commandHelp(command: CommandSpec): string {
  const options = Object.entries(command.options);
  const required = options.filter(([, option]) => option.required).map(([name, option]) => flag(name, option));
  const rest = options.some(([, option]) => !option.required) ? ['[options]'] : [];
  const words = [command.argument?.name, ...required, ...rest].filter(Boolean);
  const rows = [
    ...(command.argument ? [[command.argument.name, command.argument.help]] : []),
    ...options.map(([name, option]) => [flag(name, option), option.help]),
    ['-h, --help', 'prints this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left!.length));
  return [
    `Usage: npm run ${command.script}${words.length > 0 ? ` -- ${words.join(' ')}` : ''}`,
    '',
    command.summary,
    '',
    command.argument ? 'Arguments and options:' : 'Options:',
    ...rows.map(([left, help]) => `  ${left!.padEnd(width)}  ${help}`),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...command.examples.map((example) => `  ${example}`),
    '',
    'The database is DATABASE_URL (default ./data/wsdq.sqlite), the one the server uses.',
  ].join('\n');
}
