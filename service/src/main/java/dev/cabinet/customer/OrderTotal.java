package dev.cabinet.customer;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * An order total as it travels in events and the API: a decimal string with exactly two fraction digits, from
 * {@code "0.00"} to {@value #MAX}. A string, because a JSON number with cents is a float to most parsers (JavaScript's,
 * and the float-based JSON Schema validators that refuse {@code 19.99} under {@code multipleOf: 0.01}); one canonical
 * form, so the text is the value and producers in any language write it the same way.
 */
public final class OrderTotal {

    /** The largest total accepted. */
    public static final String MAX = "1000000000.00";
    /**
     * The form, as one pattern that ECMAScript, Java and the published schema read alike: no sign, no leading zero,
     * exactly two decimals, at most {@link #MAX}.
     */
    public static final String PATTERN = "^(?:(?:0|[1-9][0-9]{0,8})\\.[0-9]{2}|1000000000\\.00)$";
    public static final String DESCRIPTION = "a decimal string with exactly two decimals, from \"0.00\" to \"" + MAX
            + "\", e.g. \"129.90\"";

    private static final Pattern FORM = Pattern.compile(PATTERN);

    private OrderTotal() {
    }

    /** The total, checked to have the form; anything else is refused with the rule. */
    public static String require(String field, String total) {
        if (total == null || !FORM.matcher(total).matches()) {
            throw new IllegalArgumentException(field + " must be " + DESCRIPTION);
        }
        return total;
    }

    /** The canonical text of an amount with at most two decimals (a stored DynamoDB number, a v1 event's total). */
    public static String of(BigDecimal amount) {
        return amount.setScale(2, RoundingMode.UNNECESSARY).toPlainString();
    }

    /** The amount a total's text stands for, as the store keeps it (a DynamoDB number, exact). */
    public static BigDecimal amount(String total) {
        return new BigDecimal(total);
    }
}
