// Uppy's styles, imported only by the uploader so they load with the routes that upload alone;
// then ours over them, so the uploader looks like the rest of the app in both themes.
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import './uppy-theme.css';
