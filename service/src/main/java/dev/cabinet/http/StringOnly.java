package dev.cabinet.http;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

/**
 * Reads a field that must be a JSON string: Jackson would otherwise turn a number into its text, so a client sending
 * money as a float ({@code 99.9}) would meet a confusing pattern error, or none, instead of "has the wrong type".
 */
public final class StringOnly extends StdDeserializer<String> {

    public StringOnly() {
        super(String.class);
    }

    @Override
    public String deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            return (String) context.handleUnexpectedToken(String.class, parser);
        }
        return parser.getText();
    }
}
