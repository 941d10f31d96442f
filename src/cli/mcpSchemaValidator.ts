import type { jsonSchemaValidator, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { checkJsonSchema } from '../core/jsonSchema';

/**
 * The MCP server's JSON Schema validator on the project's own checker (src/core/jsonSchema.ts), given to the SDK so
 * that its Ajv stays out of dist/cli.js (see mcpWithoutAjv in scripts/lib/bundleTrims.mjs). The server validates
 * only what it asks a client for, which the assistant tools never do.
 */
export const mcpSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: unknown): JsonSchemaValidator<T> {
    return (input) => {
      const violations = checkJsonSchema(schema, input);
      return violations.length === 0
        ? { valid: true, data: input as T, errorMessage: undefined }
        : {
            valid: false,
            data: undefined,
            errorMessage: violations.map((v) => `${v.path || 'the value'} ${v.message}`).join('; '),
          };
    };
  },
};
