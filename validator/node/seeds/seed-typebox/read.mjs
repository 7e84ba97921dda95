// The seed's tool: a simplified `read` (path, limit, options.labels).
import { Type } from "typebox";

const parameters = Type.Object({
  path: Type.String({ minLength: 1 }),
  limit: Type.Number({ minimum: 1 }),
  options: Type.Object({
    labels: Type.Array(Type.String()),
  }),
});

export const readTool = {
  name: "read",
  description: "Read a text file",
  parameters,
};
