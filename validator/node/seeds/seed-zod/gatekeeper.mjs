// The zod "gatekeeper" of the Chinese seed (../../../shared/seeds/zod-gatekeeper.txt, "Agent
// 工具调用的类型安全守门员"), written from its description with zod 4: the ExecuteCodeToolSchema, a
// ToolValidationGatekeeper that turns zod issues into a correction prompt for the model (one line
// per issue, with the received value of the offending top-level field), and the agent loop step
// executeAgentToolCall (JSON syntax gate, schema gate, then the tool).
//
// zod 4 spellings of the seed's zod 3 code: `error` for `errorMap`, z.record(key, value).

import { z } from "zod";

/** The tool's arguments: `.strict()` rejects every key the schema does not declare. */
export const ExecuteCodeToolSchema = z
  .object({
    language: z.enum(["typescript", "python", "shell"], {
      error: () => "仅支持 typescript、python 或 shell",
    }),
    code: z.string().min(1, "代码内容不能为空"),
    timeoutSeconds: z.coerce.number().int().positive().max(60).default(10),
    environmentVariables: z.record(z.string(), z.string()).optional(),
  })
  .strict();

export const executeCodeTool = {
  name: "execute_code",
  description: "Run a snippet of TypeScript, Python or shell code and return its output",
  schema: ExecuteCodeToolSchema,
};

export class ToolValidationGatekeeper {
  /**
   * Checks the model's parsed arguments: {success: true, data} or {success: false,
   * correctionPrompt}, a prompt telling the model what to fix.
   */
  static validate(schema, rawModelOutput) {
    const parseResult = schema.safeParse(rawModelOutput);
    if (parseResult.success) {
      return { success: true, data: parseResult.data };
    }
    const formattedErrors = parseResult.error.issues.map((issue) => {
      const fieldPath = issue.path.join(".") || "root";
      return `- 字段 [${fieldPath}]: ${issue.message} (当前接收到的非法输入: ${JSON.stringify(rawModelOutput?.[issue.path[0]])})`;
    });
    const correctionPrompt = [
      "你刚才调用的工具参数未通过结构体验证，请检查定义并根据以下错误修正你的调用：",
      ...formattedErrors,
      "请严格按照工具定义的 JSON 格式重新生成入参，不要添加多余字段。",
    ].join("\n");
    return { success: false, correctionPrompt };
  }
}

/** The message the agent loop answers when the arguments are not JSON. */
export const NOT_JSON = "工具入参解析失败：输出内容不是合法的 JSON 字符串，请重新输出纯合法的 JSON 结构。";

/**
 * One tool call of the agent loop: JSON syntax, then the gatekeeper, then the tool. Returns the
 * text that goes back to the model: the tool's result, or what to correct.
 */
export async function executeAgentToolCall(toolName, rawArguments, executeImplementation) {
  let parsedJson;
  try {
    parsedJson = JSON.parse(rawArguments);
  } catch {
    return NOT_JSON;
  }
  const validation = ToolValidationGatekeeper.validate(ExecuteCodeToolSchema, parsedJson);
  if (!validation.success) {
    return validation.correctionPrompt; // the tool does not run; the model is asked again
  }
  try {
    const executionResult = await executeImplementation(validation.data);
    return JSON.stringify({ status: "success", result: executionResult });
  } catch (bizError) {
    return JSON.stringify({ status: "runtime_error", message: bizError.message });
  }
}
