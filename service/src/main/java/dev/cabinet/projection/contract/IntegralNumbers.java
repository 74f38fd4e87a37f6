package dev.cabinet.projection.contract;

import java.io.IOException;
import java.math.BigDecimal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * Reads an integer field written as {@code 1000.0} or {@code 1e3} as the integer it is: JSON Schema's {@code integer}
 * (draft 2020-12, what producers validate against) accepts a number with a zero fraction, and a producer's JSON may
 * write one (Python writes a float {@code 1200.0}); refused here, a schema-valid record was dead-lettered. A fraction
 * that is not zero ({@code 100.5}) is refused, as the schema refuses it. Jackson's own {@code ACCEPT_FLOAT_AS_INT}
 * would truncate it instead.
 */
final class IntegralNumbers {

    private IntegralNumbers() {
    }

    /** The module: {@code long} and {@code Long}, the integer types of event records. */
    static SimpleModule module() {
        SimpleModule module = new SimpleModule("cabinet-integral-numbers");
        module.addDeserializer(long.class, new LongReader(long.class, wrapped(long.class)));
        module.addDeserializer(Long.class, new LongReader(Long.class, wrapped(Long.class)));
        return module;
    }

    private static JsonDeserializer<?> wrapped(Class<?> type) {
        return NumberDeserializers.find(type, type.getName());
    }

    /** An integral float as its long; anything else as Jackson's own deserializer reads it. */
    private static final class LongReader extends StdDeserializer<Long> {

        private final transient JsonDeserializer<?> standard;

        LongReader(Class<?> type, JsonDeserializer<?> standard) {
            super(type);
            this.standard = standard;
        }

        @Override
        public Long deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) {
                BigDecimal value = parser.getDecimalValue();
                try {
                    return value.stripTrailingZeros().longValueExact();
                } catch (ArithmeticException notAnInteger) {
                    throw InvalidFormatException.from(parser, "not an integer: " + parser.getText(), value,
                            handledType());
                }
            }
            return (Long) standard.deserialize(parser, context);
        }

        @Override
        public Long getNullValue(DeserializationContext context) throws JsonMappingException {
            // Jackson's own: a null for a primitive fails (FAIL_ON_NULL_FOR_PRIMITIVES), for a Long it is null.
            return (Long) standard.getNullValue(context);
        }
    }
}
