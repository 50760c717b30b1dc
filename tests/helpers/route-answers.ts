// What a route module's loader or action answered, for route tests that call them without a server:
// the reply of a form it refused, or what it threw (a data(...) or a Response).

/** An action's data(...) answer: its status and Conform's reply. */
export function replyOf(res: unknown) {
  const d = res as { data: { error?: Record<string, string[] | null> }; init?: { status?: number } };
  return { status: d.init?.status ?? 200, error: d.data.error ?? {} };
}

/** What a thrown data(...) or Response says. */
export async function thrown(work: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof Response) return { status: error.status, message: await error.text() };
    const d = error as { data: unknown; init?: { status?: number } };
    return { status: d.init?.status ?? 0, message: d.data };
  }
  throw new Error("it did not stop");
}
