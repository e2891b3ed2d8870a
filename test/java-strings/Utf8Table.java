import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads one hex byte string per line; prints each as Java's new String(bytes, UTF_8), as UTF-16 code units in hex. */
public class Utf8Table {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      String hex = line.trim();
      byte[] bytes = new byte[hex.length() / 2];
      for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
      String s = new String(bytes, StandardCharsets.UTF_8);
      out.append(hex).append('\t');
      for (int i = 0; i < s.length(); i++) {
        if (i > 0) out.append(' ');
        out.append(String.format("%04x", (int) s.charAt(i)));
      }
      out.append('\n');
    }
    System.out.print(out);
  }
}
