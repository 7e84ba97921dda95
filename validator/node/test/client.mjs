// A small toolproof/1 client for the self-test: spawns one adapter and speaks the protocol.

import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const adapterPath = (name) => fileURLToPath(new URL(`../adapters/${name}.mjs`, import.meta.url));

export class Adapter {
  constructor(name) {
    // cwd "/" proves that the adapter does not depend on the working directory.
    this.child = spawn(process.execPath, [adapterPath(name)], { cwd: "/", stdio: ["pipe", "pipe", "pipe"] });
    this.nextId = 1;
    this.waiting = new Map(); // id -> resolve, for results
    this.inOrder = []; // resolvers for hello and tool answers, which come in order
    this.answers = new Map(); // id -> how many results came for it
    this.problems = []; // anything a correct adapter never sends
    this.stderr = "";
    this.exit = new Promise((resolve) => this.child.on("exit", (code, signal) => resolve(code ?? signal)));
    this.child.stderr.setEncoding("utf8").on("data", (s) => (this.stderr += s));
    let partial = "";
    this.child.stdout.setEncoding("utf8").on("data", (chunk) => {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop();
      for (const line of lines) this.#receive(line);
    });
  }

  #receive(line) {
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return this.problems.push(`not JSON: ${line.slice(0, 200)}`);
    }
    if (m.op === "result") {
      this.answers.set(m.id, (this.answers.get(m.id) ?? 0) + 1);
      const resolve = this.waiting.get(m.id);
      if (resolve === undefined) return this.problems.push(`result for unknown or answered id ${m.id}`);
      this.waiting.delete(m.id);
      resolve(m);
    } else if (m.op === "hello" || m.op === "tool") {
      const resolve = this.inOrder.shift();
      if (resolve === undefined) return this.problems.push(`unexpected ${line.slice(0, 200)}`);
      resolve(m);
    } else {
      this.problems.push(`unknown op: ${line.slice(0, 200)}`);
    }
  }

  send(m) {
    this.child.stdin.write(JSON.stringify(m) + "\n");
  }

  #ordered(m) {
    return new Promise((resolve) => {
      this.inOrder.push(resolve);
      this.send(m);
    });
  }

  hello() {
    return this.#ordered({ op: "hello", protocol: "toolproof/1" });
  }

  tool(name, parameters) {
    return this.#ordered({ op: "tool", tool: { name, description: "test tool", parameters } });
  }

  /** Sends raw argument text (or {base64}) for a tool; resolves with the result message. */
  validate(tool, args) {
    const id = this.nextId++;
    const request = typeof args === "string" ? { arguments: args } : { arguments_base64: args.base64 };
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.send({ op: "validate", id, tool, ...request });
    });
  }

  /** Closes stdin; resolves with the exit status. */
  close() {
    this.child.stdin.end();
    return this.exit;
  }
}
