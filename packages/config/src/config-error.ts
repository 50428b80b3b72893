/** Bad configuration: the message names the variable, and the process stops with that one line. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(
    variable: string,
    reason: string,
  ) {
    super(`Invalid configuration: ${variable} ${reason}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}
