// A UCP protocol error: the HTTP status of its kind and the code and text of the version's error response.
export class UcpError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, content: string) {
    super(content);
    this.status = status;
    this.code = code;
  }
}
