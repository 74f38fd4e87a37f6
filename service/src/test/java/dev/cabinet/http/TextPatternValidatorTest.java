package dev.cabinet.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.Set;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.Pattern;

import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.HibernateValidatorConfiguration;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.Test;

import dev.cabinet.customer.NewOrderRequest;
import dev.cabinet.customer.OrderTotal;
import dev.cabinet.post.NewPostRequest;
import dev.cabinet.shared.Ids;
import dev.cabinet.shared.TextRules;

/** The scan gives each excluding pattern's verdict, other patterns keep their regular expression, and the message. */
class TextPatternValidatorTest {

    /** The characters where the patterns differ, and around them: controls, DEL, '/', surrogates, a letter. */
    private static final char[] ALPHABET = {0x00, 0x01, 0x08, '\t', '\n', 0x0B, 0x0C, '\r', 0x0E, 0x1F, ' ', '/', 'a',
        0x7E, 0x7F, 0x80, 0x85, 0xE9, 0xD83D, 0xDE00, 0xFFFF};

    @Test
    void theScanAgreesWithEachExcludingPatternOnRandomText() {
        Random random = new Random(41);
        for (String regexp : List.of(TextRules.NO_CONTROL_CHARACTERS, TextRules.MULTILINE_TEXT, TextRules.FOLDER_NAME)) {
            assertTrue(TextRules.allowedCharacters(regexp).isPresent(), regexp + " is checked by a scan");
            TextPatternValidator validator = validator(regexp);
            java.util.regex.Pattern regex = java.util.regex.Pattern.compile(regexp);
            for (int i = 0; i < 20_000; i++) {
                StringBuilder text = new StringBuilder();
                for (int length = random.nextInt(8); length > 0; length--) {
                    text.append(ALPHABET[random.nextInt(ALPHABET.length)]);
                }
                assertEquals(regex.matcher(text).matches(), validator.isValid(text, null),
                        () -> regexp + " on " + text.chars().mapToObj(c -> String.format("U+%04X", c)).toList());
            }
        }
    }

    @Test
    void anyOtherPatternIsStillARegularExpression() {
        assertTrue(TextRules.allowedCharacters(TextRules.HTTP_URL).isEmpty());
        TextPatternValidator url = validator(TextRules.HTTP_URL);
        assertTrue(url.isValid("https://example.com/a.png", null));
        assertFalse(url.isValid("javascript:alert(1)", null));
        TextPatternValidator id = validator(Ids.PATTERN);
        assertTrue(id.isValid(Ids.newId(), null));
        assertFalse(id.isValid("not an id", null));
    }

    @Test
    void aRefusedValueGetsHibernateValidatorsOwnMessage() {
        NewPostRequest post = new NewPostRequest("A\u0007title", "a\tbody\u0000");
        Set<String> own = messages(hibernate(false).validate(post));
        Set<String> ours = messages(hibernate(true).validate(post));
        assertEquals(Set.of("title must match \"[^\\x00-\\x1F\\x7F]*\"",
                "body must match \"[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]*\""), ours);
        assertEquals(own, ours);
        assertTrue(hibernate(true).validate(new NewPostRequest("A title", "a\tbody\r\n")).isEmpty());
        // A pattern with braces, kept as a regular expression: its message names it as Hibernate Validator's does.
        NewOrderRequest order = new NewOrderRequest("not an id", null, "1.0");
        assertEquals(Set.of("orderId must match \"[A-Za-z0-9_-]{1,64}\"", "total must be " + OrderTotal.DESCRIPTION),
                messages(hibernate(true).validate(order)));
        assertEquals(messages(hibernate(false).validate(order)), messages(hibernate(true).validate(order)));
    }

    private static TextPatternValidator validator(String regexp) {
        TextPatternValidator validator = new TextPatternValidator();
        validator.initialize(new Pattern() {
            @Override
            public String regexp() {
                return regexp;
            }

            @Override
            public Flag[] flags() {
                return new Flag[0];
            }

            @Override
            public String message() {
                return "";
            }

            @Override
            public Class<?>[] groups() {
                return new Class<?>[0];
            }

            @SuppressWarnings("unchecked")
            @Override
            public Class<? extends jakarta.validation.Payload>[] payload() {
                return new Class[0];
            }

            @Override
            public Class<? extends java.lang.annotation.Annotation> annotationType() {
                return Pattern.class;
            }
        });
        return validator;
    }

    private static Validator hibernate(boolean withTextPatterns) {
        HibernateValidatorConfiguration configuration = Validation.byProvider(HibernateValidator.class).configure()
                .messageInterpolator(new ParameterMessageInterpolator());
        if (withTextPatterns) {
            new TextPatternValidation().customize(configuration);
        }
        return configuration.buildValidatorFactory().getValidator();
    }

    private static Set<String> messages(Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream().map(violation -> violation.getPropertyPath() + " " + violation.getMessage())
                .collect(java.util.stream.Collectors.toSet());
    }
}
