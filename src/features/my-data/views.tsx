import { CsrfField, Field, FormAlert, type FormErrors } from '../../platform/views/forms.js';
import { Layout } from '../../platform/views/layout.js';
import type { ViewContext } from '../../platform/views/render.js';

export function ImportPage({ ctx, errors = {}, maxMegabytes }: { ctx: ViewContext; errors?: FormErrors; maxMegabytes: number }) {
  return (
    <Layout ctx={ctx} title="Import notes">
      <article class="narrow">
        <h1>Import notes</h1>
        <p>
          Upload a zip <a href="/accounts/export/">exported from here</a> to bring back everything in it, or a zip of Markdown
          (<code>.md</code>) files from another notes app: each file becomes a note, its folder its notebook, and the YAML front
          matter (<code>title</code>, <code>tags</code>, <code>notebook</code>, <code>created</code>) is read when there is one.
        </p>
        <p>
          Nothing is replaced: notebooks and tags with the same name are reused, and a note you already have (same title and
          text) is left out. A file with a problem changes nothing. At most {maxMegabytes} MB.
        </p>
        {/* The token comes first: the server reads it before the upload. */}
        <form method="post" action="/accounts/import/" enctype="multipart/form-data">
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <label for="id_file">Zip file</label>
          <input type="file" id="id_file" name="file" accept=".zip,application/zip" required />
          <button type="submit">Import</button>
        </form>
        <p>
          <a href="/accounts/">Back to your account</a>
        </p>
      </article>
    </Layout>
  );
}

export function DeleteAccountPage({ ctx, errors = {} }: { ctx: ViewContext; errors?: FormErrors }) {
  return (
    <Layout ctx={ctx} title="Delete your account">
      <article class="narrow">
        <h1>Delete your account?</h1>
        <p>This cannot be undone. These go with your account, at once:</p>
        <ul>
          <li>your notes, notebooks and tags, including the notes you shared into groups;</li>
          <li>your to-do and shopping lists, including those shared with others or with a group;</li>
          <li>your chat messages in every group;</li>
          <li>your sessions: you are signed out everywhere.</li>
        </ul>
        <p>
          A group you own passes to the member who has been in it longest; a group you own with no other member is deleted.
          You may want to <a href="/accounts/export/">download your data</a> first.
        </p>
        <form method="post" action="/accounts/delete/" novalidate>
          <CsrfField ctx={ctx} />
          <FormAlert errors={errors} />
          <Field name="password" label="Your password" type="password" errors={errors} required autocomplete="current-password" />
          <div class="actions">
            <button type="submit" class="danger">Delete my account</button>
            <a href="/accounts/" role="button" class="secondary outline">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
