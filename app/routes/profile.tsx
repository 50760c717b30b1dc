// /profile: the signed-in user's account (avatar, name, e-mail, creation date) and the six profile
// fields in two sections. Saving redirects back here with the 'Profile updated successfully!'
// snackbar; a refused save keeps what was typed, shows the field messages and the error snackbar.
// It submits and validates on the server without JavaScript.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { Avatar } from "~/components/avatar";
import { DateTime } from "~/components/date-time";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, liveChecks, SelectField } from "~/components/forms";
import { useSnackbar } from "~/components/snackbar";
import { BRAND } from "~/lib/brand";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatOffset, timeZoneNames, zoneOffsetMinutes } from "~/lib/dates";
import { ProfileFormSchema, profileFields } from "~/schemas/profile";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/session.server";
import { reportedTimeZone } from "~/services/time-zone.server";
import { toPublicUser, updateProfile } from "~/services/users.server";
import { useHydrated } from "~/components/hydrated";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `My Profile · ${BRAND}` }];

const LOAD_FAILED = "Failed to load profile data. Please try again.";
const SAVE_FAILED = "Failed to update profile. Please try again.";

/** The zones to choose from, "(UTC+05:30) Asia/Kolkata", with the user's own even if the list lacks it. */
function timeZoneOptions(chosen: string | null) {
  const now = Date.now();
  const names = timeZoneNames();
  if (chosen && !names.includes(chosen)) names.unshift(chosen);
  return names.map((name) => ({ value: name, label: `(UTC${formatOffset(zoneOffsetMinutes(now, name))}) ${name}` }));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    user: toPublicUser(user),
    timeZone: user.timeZone,
    browserTimeZone: reportedTimeZone(request),
    timeZones: timeZoneOptions(user.timeZone),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: ProfileFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission, SAVE_FAILED);
  try {
    await updateProfile(user.id, submission.value);
  } catch (error) {
    return replyRefused(submission, error, SAVE_FAILED);
  }
  return redirectWithFlash(request, "/profile", {
    kind: "snackbar",
    type: "success",
    message: "Profile updated successfully!",
  });
}

type ProfileField = "firstName" | "lastName" | "email" | "phone" | "company" | "position";
type FieldSpec = { name: ProfileField; label: string; type: "text" | "email" | "tel"; autoComplete: string };

const PERSONAL: readonly FieldSpec[] = [
  { name: "firstName", label: "First Name", type: "text", autoComplete: "given-name" },
  { name: "lastName", label: "Last Name", type: "text", autoComplete: "family-name" },
  { name: "email", label: "Email", type: "email", autoComplete: "email" },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel" },
];
const COMPANY: readonly FieldSpec[] = [
  { name: "company", label: "Company", type: "text", autoComplete: "organization" },
  { name: "position", label: "Position", type: "text", autoComplete: "organization-title" },
];

export default function Profile() {
  const { user, timeZone, browserTimeZone, timeZones } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const showSnackbar = useSnackbar();
  const hydrated = useHydrated();
  const [form, fields] = useForm({
    id: "profile-form",
    lastResult,
    defaultValue: { ...profileFields(user), timeZone: timeZone ?? "" },
    ...liveChecks(ProfileFormSchema),
  });

  useEffect(() => {
    if (lastResult?.error?.[""]?.includes(SAVE_FAILED)) showSnackbar(SAVE_FAILED, "error");
  }, [lastResult, showSnackbar]);

  const formProps = getFormProps(form);
  const field = (f: FieldSpec) => (
    <Field
      key={f.name}
      label={f.label}
      inputProps={{ ...getInputProps(fields[f.name], { type: f.type }), autoComplete: f.autoComplete }}
      errors={fields[f.name].errors}
    />
  );

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <section className="card flex flex-col items-center gap-3 p-6 text-center sm:flex-row sm:text-left">
        <Avatar name={user.displayName} image={user.profileImage} size={72} />
        <div>
          <h2 className="text-2xl font-bold text-slate-900">My Profile</h2>
          <p className="font-medium text-slate-800">{user.displayName || "User"}</p>
          <p className="text-sm text-slate-500">{user.email || "No Email"}</p>
          <p className="text-xs text-slate-400">
            Account created on <DateTime value={user.createdAt} format="long" />
          </p>
        </div>
      </section>
      {/* The failure is said once: by the snackbar in the browser, by this alert on a page
          without JavaScript (where the snackbar cannot show). */}
      {hydrated ? null : <FormAlert id={form.errorId} errors={form.errors} />}
      <Form
        method="post"
        className="space-y-6"
        {...formProps}
        onSubmit={(event) => {
          formProps.onSubmit(event);
          // The browser's check stopped the save before it reached the server: the same error
          // snackbar as a save the server refused.
          if (event.defaultPrevented) showSnackbar(SAVE_FAILED, "error");
        }}
      >
        <section className="card p-6">
          <h3 className="mb-4 font-semibold text-slate-900">Personal Information</h3>
          <div className="grid gap-4 sm:grid-cols-2">{PERSONAL.map(field)}</div>
        </section>
        <section className="card p-6">
          <h3 className="mb-4 font-semibold text-slate-900">Company Information</h3>
          <div className="grid gap-4 sm:grid-cols-2">{COMPANY.map(field)}</div>
        </section>
        <section className="card p-6">
          <h3 className="mb-4 font-semibold text-slate-900">Time Zone</h3>
          <SelectField
            label="Time zone"
            hint="Dates and times across the CRM are shown in this zone; hover a date to see which."
            placeholder={`Your browser's time zone${browserTimeZone ? ` (${browserTimeZone})` : ""}`}
            options={timeZones}
            selectProps={getSelectProps(fields.timeZone)}
            errors={fields.timeZone.errors}
          />
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

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/dashboard" fallback={LOAD_FAILED} />;
}
