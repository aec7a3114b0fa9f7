import { forwardRef, type ComponentProps } from 'react';
import { SelectInput } from './form-fields';

/** One choice of a role select; a disabled choice says why in its label (e.g. 'Needs a paid plan'). */
export interface RoleOption {
  value: string;
  label: string;
  disabled?: boolean;
}

type RoleSelectProps = Omit<ComponentProps<typeof SelectInput>, 'children'> & {
  placeholder: string;
  options: readonly RoleOption[];
};

/** The role picker of the invite, role-change and grant-access dialogs: a placeholder, then the roles. */
export const RoleSelect = forwardRef<HTMLSelectElement, RoleSelectProps>(function RoleSelect(
  { placeholder, options, ...props },
  ref,
) {
  return (
    <SelectInput {...props} ref={ref}>
      <option value="" disabled>
        {placeholder}
      </option>
      {options.map((o) => (
        <option key={o.value} value={o.value} disabled={o.disabled}>
          {o.label}
        </option>
      ))}
    </SelectInput>
  );
});
