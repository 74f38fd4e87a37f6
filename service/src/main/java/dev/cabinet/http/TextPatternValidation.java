package dev.cabinet.http;

import jakarta.inject.Singleton;
import jakarta.validation.constraints.Pattern;

import org.hibernate.validator.BaseHibernateValidatorConfiguration;
import org.hibernate.validator.cfg.ConstraintMapping;

import io.quarkus.hibernate.validator.ValidatorFactoryCustomizer;

/** Hibernate Validator checks every {@code @Pattern} with {@link TextPatternValidator} instead of its own validator. */
@Singleton
public class TextPatternValidation implements ValidatorFactoryCustomizer {

    @Override
    public void customize(BaseHibernateValidatorConfiguration<?> configuration) {
        ConstraintMapping mapping = configuration.createConstraintMapping();
        mapping.constraintDefinition(Pattern.class).includeExistingValidators(false)
                .validatedBy(TextPatternValidator.class);
        configuration.addMapping(mapping);
    }
}
