import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { Avatar } from "~/components/avatar";
import { useSnackbar } from "~/components/snackbar";
import { ApiError, fieldErrors } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { formatLongDate } from "~/lib/dates";
import { ProfileSchema } from "~/schemas/profile";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import { toPublicUser, updateProfile } from "~/services/users.server";

export const meta: MetaFunction = () => [{ title: `My Profile · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { user: toPublicUser(await requireUser(request)) };
}

type ActionResult = { ok: false; message: string; fields: Record<string, string>; values: Record<string, string> };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const values = Object.fromEntries(
    ["firstName", "lastName", "email", "phone", "company", "position"].map((k) => [k, String(form.get(k) ?? "")]),
  );
  const parsed = ProfileSchema.safeParse(values);
  if (!parsed.success) {
    return data<ActionResult>(
      { ok: false, message: "Failed to update profile. Please try again.", fields: fieldErrors(parsed.error), values },
      { status: 400 },
    );
  }
  try {
    await updateProfile(user.id, parsed.data);
  } catch (error) {
    if (error instanceof ApiError) {
      return data<ActionResult>(
        { ok: false, message: "Failed to update profile. Please try again.", fields: error.fields ?? {}, values },
        { status: error.status },
      );
    }
    throw error;
  }
  return redirectWithFlash(request, "/profile", { kind: "snackbar", type: "success", message: "Profile updated successfully!" });
}

const PERSONAL = [
  { name: "firstName", label: "First Name", type: "text", autoComplete: "given-name" },
  { name: "lastName", label: "Last Name", type: "text", autoComplete: "family-name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel" },
] as const;
const COMPANY = [
  { name: "company", label: "Company", type: "text", autoComplete: "organization" },
  { name: "position", label: "Position", type: "text", autoComplete: "organization-title" },
] as const;

export default function Profile() {
  const { user } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const showSnackbar = useSnackbar();

  useEffect(() => {
    if (result && !result.ok) showSnackbar(result.message, "error");
  }, [result, showSnackbar]);

  const value = (name: keyof typeof user) => (result && !result.ok ? result.values[name] : undefined) ?? String(user[name] ?? "");
  const field = (f: { name: string; label: string; type: string; autoComplete: string }) => {
    const error = result && !result.ok ? result.fields[f.name] : undefined;
    return (
      <div key={f.name}>
        <label htmlFor={f.name} className="label">{f.label}</label>
        <input
          id={f.name}
          name={f.name}
          type={f.type}
          autoComplete={f.autoComplete}
          defaultValue={value(f.name as keyof typeof user)}
          className="input"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${f.name}-error` : undefined}
        />
        {error ? <p id={`${f.name}-error`} className="field-error">{error}</p> : null}
      </div>
    );
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <section className="card flex flex-col items-center gap-3 p-6 text-center sm:flex-row sm:text-left">
        <Avatar name={user.displayName} image={user.profileImage} size={72} />
        <div>
          <h2 className="text-2xl font-bold text-slate-900">My Profile</h2>
          <p className="font-medium text-slate-800">{user.displayName || "User"}</p>
          <p className="text-sm text-slate-500">{user.email || "No Email"}</p>
          <p className="text-xs text-slate-400">Account created on {formatLongDate(user.createdAt)}</p>
        </div>
      </section>
      {result && !result.ok ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">{result.message}</p>
      ) : null}
      <Form method="post" className="space-y-6" noValidate>
        <section className="card p-6">
          <h3 className="mb-4 font-semibold text-slate-900">Personal Information</h3>
          <div className="grid gap-4 sm:grid-cols-2">{PERSONAL.map(field)}</div>
        </section>
        <section className="card p-6">
          <h3 className="mb-4 font-semibold text-slate-900">Company Information</h3>
          <div className="grid gap-4 sm:grid-cols-2">{COMPANY.map(field)}</div>
        </section>
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving..." : "Save Changes"}
          </button>
        </div>
      </Form>
    </div>
  );
}
