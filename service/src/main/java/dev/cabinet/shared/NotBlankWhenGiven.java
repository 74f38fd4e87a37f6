package dev.cabinet.shared;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * A change's text that is either left out (null: unchanged) or more than white space, as its creation's
 * {@code @NotBlank} asks. Hibernate Validator has no such constraint: {@code @NotBlank} refuses null, which a change
 * means as "unchanged". The empty string is {@code @Size(min = 1)}'s to refuse, so it gets one error, not two.
 */
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.RECORD_COMPONENT })
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = NotBlankWhenGiven.Validator.class)
public @interface NotBlankWhenGiven {

    String message() default "must not be blank";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Valid unless the text is there, not empty, and white space only. */
    class Validator implements ConstraintValidator<NotBlankWhenGiven, CharSequence> {

        @Override
        public boolean isValid(CharSequence value, ConstraintValidatorContext context) {
            // trim(), as Hibernate Validator's @NotBlank does, so that a change and a creation refuse the same texts
            return value == null || value.isEmpty() || !value.toString().trim().isEmpty();
        }
    }
}
