// The tools of the alarm servers, written with zod as their SDKs take them, in two gates:
// "correct" (strict objects, integers as integers) and "lenient" (a planted bug: strings of
// digits coerced to integers, unknown keys stripped, as zod's default object does).
import * as z from 'zod';

const days = z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);

export function tools(mode) {
  const lenient = mode === 'lenient';
  const obj = (shape) => (lenient ? z.object(shape) : z.strictObject(shape));
  const int = (min, max) => (lenient ? z.coerce.number().int().min(min).max(max) : z.number().int().min(min).max(max));
  return {
    set_alarm: {
      description: 'Set an alarm.',
      inputSchema: obj({
        when: obj({ hour: int(0, 23), minute: int(0, 59).optional() }),
        label: z.string().max(40).optional(),
        days: z.array(days).optional(),
      }),
    },
    send_note: {
      description: 'Send a note.',
      inputSchema: obj({ to: z.string(), body: z.string(), priority: int(1, 5).optional() }),
    },
  };
}

// The listed schemas of the lenient gate are the correct gate's: the server says one thing and
// checks another, which is the bug toolproof must catch.
export function listedTools() {
  return Object.entries(tools('correct')).map(([name, t]) => ({
    name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.inputSchema, { io: 'input' }),
  }));
}

export function parseArgs(argv) {
  const opts = { transport: 'stdio', port: 0, mode: 'correct', token: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--http') opts.transport = 'http', opts.port = Number(argv[++i] ?? 0);
    else if (a === '--mode') opts.mode = argv[++i];
    else if (a === '--token') opts.token = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  if (!['correct', 'lenient'].includes(opts.mode)) throw new Error(`--mode ${opts.mode}: correct or lenient`);
  return opts;
}

export function authorized(req, token) {
  return !token || req.headers.authorization === `Bearer ${token}`;
}
