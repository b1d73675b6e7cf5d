/** A method's failure that should reach the operator as a readable message, not a stack trace. */
export class MethodError extends Error {
  readonly lines: string[];
  constructor(...lines: string[]) {
    super(lines.join(" "));
    this.name = "MethodError";
    this.lines = lines;
  }
}
