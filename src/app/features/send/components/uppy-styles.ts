// Uppy's styles, imported only by the uploader so they load with the "New transfer" route alone.
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
