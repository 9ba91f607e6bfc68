/** The product's name: a brand, the same in every language. */
const PRODUCT_NAME = 'Parcel';

export function Logo() {
  return (
    <span className="inline-flex items-center gap-2 text-base font-semibold tracking-tight">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="7" className="fill-indigo-600 dark:fill-indigo-500" />
        <path
          d="M8 12.5 16 8l8 4.5v9L16 26l-8-4.5zM8 12.5 16 17l8-4.5M16 17v9"
          fill="none"
          stroke="#fff"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      {PRODUCT_NAME}
    </span>
  );
}
