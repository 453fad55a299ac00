// The OpenAPI 3.1.0 document, generated from the registry (never written by hand).
import type { Registry } from "../tools/registry.ts";
import { AREA_DESCRIPTIONS } from "../tools/areas.ts";
import { ADVERTISED_SCOPES } from "../tools/scopes.ts";
import { describeTool, type FailureDescription, type JsonSchema } from "../tools/describe.ts";

const problemSchema: JsonSchema = {
  type: "object",
  required: ["ok", "type", "title", "status", "detail", "code"],
  properties: {
    ok: { const: false },
    type: { type: "string", format: "uri-reference", description: "Problem type (RFC 9457)." },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    code: { type: "string", description: "Machine-readable reason, e.g. not_found, illegal_transition." },
    errors: {
      type: "array",
      description: "Each input path that violates the schema (400 only).",
      items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
    },
    requestId: { type: "string", description: "Present on 5xx problems; quote it when reporting." },
  },
};

const rateLimitHeaderNames = ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

function problemResponse(description: string, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
}

/** What a problem status means for any tool; a tool's own failures of that status are listed after it. */
const MEANING: Readonly<Record<number, string>> = {
  400: "The body is not a JSON object, or the input violates the tool's schema (`errors` lists each path).",
  401: "No, an invalid or a revoked Bearer key.",
  403: "The key lacks the tool's scope (the detail names it).",
  404: "The subject does not exist.",
  409: "A conflict with existing data.",
  413: "The body is too large.",
  422: "A shop rule refuses the request (illegal transition, category not empty, expired code …).",
  429: "Too many requests in this window.",
  500: "Unexpected failure; the body carries a request id, never a stack trace.",
};

/** The problem responses every operation has: status → its definition under components/responses. */
const SHARED_RESPONSES: Readonly<Record<string, string>> = {
  400: "BadRequest",
  401: "Unauthorized",
  403: "Forbidden",
  422: "Refused",
  429: "RateLimited",
  500: "InternalError",
};

const rateLimitedHeaders = {
  "Retry-After": { $ref: "#/components/headers/Retry-After" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
};

/**
 * An operation's problem responses: the shared ones by reference, and for each status of a failure the tool documents
 * a response of its own that lists the codes, in the description Swagger UI shows and as `x-problem-codes`.
 */
function problemResponses(failures: readonly FailureDescription[]): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, name] of Object.entries(SHARED_RESPONSES)) responses[status] = { $ref: `#/components/responses/${name}` };
  for (const status of new Set(failures.map((failure) => failure.status))) {
    const listed = failures.filter((failure) => failure.status === status);
    const lines = listed.map(({ code, when }) => `- \`${code}\`${when ? `: ${when}` : ""}`);
    responses[status] = {
      ...problemResponse(`${MEANING[status]}\n\n${lines.join("\n")}`, status === 429 ? rateLimitedHeaders : undefined),
      "x-problem-codes": listed.map(({ code, when }) => (when ? { code, when } : { code })),
    };
  }
  return responses;
}

/**
 * JSON Schemas of recursive types (opaque JSON values) carry `$defs` with `#/$defs/…` references, which resolve
 * against the document root in OpenAPI: move them to components/schemas under a per-tool name and rewrite the refs.
 */
function hoistDefs(schema: JsonSchema, prefix: string, components: Record<string, unknown>): JsonSchema {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === "$defs") continue;
      out[key] = key === "$ref" && typeof item === "string" && item.startsWith("#/$defs/")
        ? `#/components/schemas/${prefix}_${item.slice("#/$defs/".length)}`
        : rewrite(item);
    }
    return out;
  };
  const collect = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(collect);
    if (!value || typeof value !== "object") return;
    const defs = (value as { $defs?: Record<string, unknown> }).$defs;
    for (const [name, def] of Object.entries(defs ?? {})) components[`${prefix}_${name}`] = rewrite(def);
    Object.values(value).forEach(collect);
  };
  collect(schema);
  return rewrite(schema) as JsonSchema;
}

export function openApiDocument(registry: Registry, baseUrl: string): JsonSchema {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { Problem: problemSchema };
  for (const tool of registry.tools) {
    const described = describeTool(tool);
    const [area, action] = tool.name.split(".") as [string, string];
    const prefix = `${area}_${action}`;
    const inputSchema = hoistDefs(described.inputSchema, `${prefix}_input`, schemas);
    const outputSchema = hoistDefs(described.outputSchema, `${prefix}_output`, schemas);
    paths[`/api/v1/tools/${tool.name}`] = {
      post: {
        operationId: `invoke_${area}_${action}`,
        summary: tool.name,
        description: tool.description,
        tags: [area],
        "x-service-required-scope": tool.scope,
        "x-service-anonymous-read": tool.anonymous,
        "x-service-audited": tool.audited,
        security: tool.anonymous ? [{}, { bearerAuth: [tool.scope] }] : [{ bearerAuth: [tool.scope] }],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: inputSchema,
              examples: Object.fromEntries(tool.examples.map((value, i) => [`example${i + 1}`, { value }])),
            },
          },
        },
        responses: {
          "200": {
            description: "The tool ran; `result` is its output.",
            headers: Object.fromEntries(rateLimitHeaderNames.map((name) => [name, { $ref: `#/components/headers/${name}` }])),
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["ok", "result"],
                  additionalProperties: false,
                  properties: { ok: { const: true }, result: outputSchema },
                },
              },
            },
          },
          ...problemResponses(described.errors),
          default: { $ref: "#/components/responses/Problem" },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Shop tool API",
      version: "1.0.0",
      description:
        "Every shop capability is a named tool `<area>.<action>`, called with POST /api/v1/tools/<name> and a JSON object. " +
        "Money fields (*Dkk, *Oere) are integers in øre. The same tools are served over MCP at /api/mcp.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: baseUrl }],
    "x-service-scopes-supported": [...ADVERTISED_SCOPES],
    tags: [...new Set(registry.tools.map((tool) => tool.name.split(".")[0]!))].map((name) => {
      const description = AREA_DESCRIPTIONS[name];
      return description ? { name, description } : { name };
    }),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key with the scopes the tool needs (`*` for admin keys)." },
      },
      schemas,
      headers: {
        "RateLimit-Policy": { description: "Quota policy: name, quota q and window w in seconds.", schema: { type: "string" } },
        RateLimit: { description: "Remaining requests r and seconds t until the window resets.", schema: { type: "string" } },
        "RateLimit-Limit": { description: "Requests allowed per window.", schema: { type: "integer" } },
        "RateLimit-Remaining": { description: "Requests left in this window.", schema: { type: "integer" } },
        "RateLimit-Reset": { description: "Seconds until the window resets.", schema: { type: "integer" } },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
      },
      responses: {
        BadRequest: problemResponse(MEANING[400]!),
        Unauthorized: problemResponse(MEANING[401]!, {
          "WWW-Authenticate": { description: "Bearer challenge.", schema: { type: "string" } },
        }),
        Forbidden: problemResponse(MEANING[403]!),
        Refused: problemResponse(MEANING[422]!),
        RateLimited: problemResponse(MEANING[429]!, rateLimitedHeaders),
        InternalError: problemResponse(MEANING[500]!),
        Problem: problemResponse("Any other failure: 404 unknown tool or subject, 409 conflict, 413 body too large, 503 database unreachable."),
      },
    },
  };
}
